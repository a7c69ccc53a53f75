import { describe, expect, it } from "vitest";
import { collectHints, createPhraseSpread, hintStrength, matchHintFields, type HintMatch } from "../../src/l0/hints.js";
import { tokenize } from "../../src/text/tokenize.js";
import type { Chunk } from "../../src/types.js";

function chunk(file: string, domain: string, fields: Partial<Chunk["meta"]> & { content?: string }): Chunk {
  const { content = "text", ...meta } = fields;
  return {
    source: `${file}#top`,
    file,
    title: meta.title,
    breadcrumb: meta.title ? [meta.title] : [],
    content,
    meta: { keywords: [], entities: [], aliases: [], ...meta, domain },
  };
}

const CHUNKS = [
  chunk("billing/refunds.md", "billing", { title: "Refunds and Credit Notes", keywords: ["refund", "credit note"], entities: ["Ledgerline"], content: "payments are refunded" }),
  chunk("deploy/rollback.md", "deployment", { title: "Release Rollback", keywords: ["rollback"], entities: ["Helmsman"], content: "payments service rollback" }),
  chunk("billing/batch.md", "billing", { title: "Invoice Batch Rollback", keywords: ["rollback"], content: "rollback of an invoice batch" }),
];
const termsOf = (phrase: string) => tokenize(phrase);
const documentsWith = (term: string) => CHUNKS.flatMap((c, i) => (tokenize(`${c.content} ${c.meta.keywords.join(" ")} ${c.meta.entities.join(" ")}`).includes(term) ? [i] : []));
const spread = createPhraseSpread(CHUNKS, termsOf, documentsWith);

function hintsFor(query: string) {
  const terms = new Set(tokenize(query));
  return collectHints(CHUNKS.map((c) => ({ chunk: c, match: matchHintFields(terms, c, termsOf) })), spread);
}

describe("L0 hints", () => {
  it("counts a multi-word keyword only when the query has every one of its terms", () => {
    const terms = new Set(tokenize("how do I issue a credit"));
    expect(matchHintFields(terms, CHUNKS[0], termsOf).keywords).toEqual([]);
    expect(matchHintFields(new Set(tokenize("credit notes for customers")), CHUNKS[0], termsOf).keywords).toEqual(["credit note"]);
  });

  it("counts in how many domains the corpus mentions a phrase", () => {
    expect(spread("rollback")).toBe(2);
    expect(spread("Helmsman")).toBe(1);
    expect(spread("nothing like this")).toBe(0);
  });

  it("names the domain of a keyword that only one domain mentions", () => {
    expect(hintsFor("refund for a customer").domains).toEqual(["billing"]);
  });

  it("names no domain for one keyword that several domains mention", () => {
    const hints = hintsFor("rollback");
    expect(hints.keywords).toEqual(["rollback"]);
    expect(hints.domains).toEqual([]);
  });

  it("names the domain of a matched title even when its keyword is shared", () => {
    expect(hintsFor("invoice batch rollback").domains).toEqual(["billing"]);
  });

  it("names every domain with strong evidence, so that two strong signals leave L1 unfiltered", () => {
    expect(hintsFor("Helmsman refund").domains).toEqual(["billing", "deployment"]);
  });

  it("scores titles, aliases and domain names as strong, shared phrases as weak", () => {
    const base: HintMatch = { keywords: [], aliases: [], entities: [] };
    expect(hintStrength({ ...base, title: "x" }, spread)).toBe(2);
    expect(hintStrength({ ...base, aliases: ["x"] }, spread)).toBe(2);
    expect(hintStrength({ ...base, keywords: ["rollback"] }, spread)).toBe(1);
    expect(hintStrength({ ...base, entities: ["Helmsman"] }, spread)).toBe(2);
  });
});
