import { describe, expect, it } from "vitest";
import { chooseDomainFilter } from "../../src/graph/routes.js";
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
  chunk("billing/refunds.md", "billing", {
    title: "Refunds and Credit Notes",
    keywords: ["refund", "credit note"],
    entities: ["Ledgerline"],
    content: "payments are refunded",
  }),
  chunk("deploy/rollback.md", "deployment", {
    title: "Release Rollback",
    keywords: ["rollback"],
    entities: ["Helmsman"],
    content: "payments service rollback",
  }),
  chunk("billing/batch.md", "billing", {
    title: "Invoice Batch Rollback",
    keywords: ["rollback"],
    content: "rollback of an invoice batch",
  }),
];
const termsOf = (phrase: string) => tokenize(phrase);
const documentsWith = (term: string) =>
  CHUNKS.flatMap((c, i) =>
    tokenize(`${c.content} ${c.meta.keywords.join(" ")} ${c.meta.entities.join(" ")}`).includes(term) ? [i] : [],
  );
const spread = createPhraseSpread(CHUNKS, termsOf, documentsWith);

function hintsFor(query: string) {
  const terms = new Set(tokenize(query));
  return collectHints(
    CHUNKS.map((c) => ({ chunk: c, match: matchHintFields(terms, c, termsOf) })),
    spread,
  );
}

describe("L0 hints", () => {
  it("counts a multi-word keyword only when the query has every one of its terms", () => {
    const terms = new Set(tokenize("how do I issue a credit"));
    expect(matchHintFields(terms, CHUNKS[0], termsOf).keywords).toEqual([]);
    expect(matchHintFields(new Set(tokenize("credit notes for customers")), CHUNKS[0], termsOf).keywords).toEqual([
      "credit note",
    ]);
  });

  it("counts in how many domains the corpus mentions a phrase", () => {
    expect(spread("rollback")).toBe(2);
    expect(spread("Helmsman")).toBe(1);
    expect(spread("nothing like this")).toBe(0);
  });

  it("names the domain of a keyword that only one domain mentions", () => {
    expect(hintsFor("refund for a customer").domains).toEqual(["billing"]);
  });

  it("names every domain whose entries share a matched keyword, so that L1 is left unfiltered", () => {
    const hints = hintsFor("rollback");
    expect(hints.keywords).toEqual(["rollback"]);
    expect(hints.domains).toEqual(["billing", "deployment"]);
    expect(chooseDomainFilter(null, hints)).toBeNull();
  });

  it("names the domain of every matched file, a title match and a shared keyword alike", () => {
    // The title points at billing, the shared keyword "rollback" at deployment too: both are named.
    expect(hintsFor("invoice batch rollback").domains).toEqual(["billing", "deployment"]);
  });

  it("names every domain a match points at, whatever the strength of each match", () => {
    expect(hintsFor("Helmsman refund").domains).toEqual(["billing", "deployment"]);
  });

  it("names the one domain of the matched entries, which then filters L1", () => {
    const hints = hintsFor("Ledgerline");
    expect(hints.entities).toEqual(["Ledgerline"]);
    expect(hints.domains).toEqual(["billing"]);
    expect(chooseDomainFilter(null, hints)).toBe("billing");
  });

  it("names no domain when no short field matched", () => {
    const hints = hintsFor("quarterly weather report");
    expect(hints).toEqual({ titles: [], keywords: [], domains: [], entities: [], domainEvidence: [] });
    expect(chooseDomainFilter(null, hints)).toBeNull();
  });

  it("leaves out blank and missing domains and trims the others", () => {
    const chunks = [
      chunk("a.md", "   ", { keywords: ["quota"] }),
      { ...chunk("b.md", "", { keywords: ["quota"] }), meta: { keywords: ["quota"], entities: [], aliases: [] } },
      chunk("c.md", " billing ", { keywords: ["quota"] }),
    ];
    const terms = new Set(tokenize("quota"));
    const hints = collectHints(
      chunks.map((c) => ({ chunk: c, match: matchHintFields(terms, c, termsOf) })),
      () => 3,
    );
    expect(hints.keywords).toEqual(["quota"]);
    expect(hints.domains).toEqual(["billing"]);
    expect(hints.domainEvidence).toEqual([{ domain: "billing", strength: 1, files: 1 }]);
    expect(chooseDomainFilter(null, hints)).toBe("billing");
  });

  it("reports per domain how many files matched and the best file's strength, in the order of domains", () => {
    const hints = hintsFor("invoice batch rollback");
    // billing: the batch page (title 2 + shared keyword 1); deployment: a shared keyword only.
    expect(hints.domainEvidence).toEqual([
      { domain: "billing", strength: 3, files: 1 },
      { domain: "deployment", strength: 1, files: 1 },
    ]);
    expect(hints.domainEvidence?.map(({ domain }) => domain)).toEqual(hints.domains);
  });

  it("counts a file once however many of its chunks matched, and every matched file of a domain", () => {
    const second = { ...CHUNKS[2], source: "billing/batch.md#details" };
    const terms = new Set(tokenize("rollback Ledgerline"));
    const hints = collectHints(
      [...CHUNKS, second].map((c) => ({ chunk: c, match: matchHintFields(terms, c, termsOf) })),
      spread,
    );
    expect(hints.domains).toEqual(["billing", "deployment"]);
    expect(hints.domainEvidence).toEqual([
      { domain: "billing", strength: 2, files: 2 },
      { domain: "deployment", strength: 1, files: 1 },
    ]);
  });

  it("scores titles, aliases and domain names as strong, shared phrases as weak", () => {
    const base: HintMatch = { keywords: [], aliases: [], entities: [] };
    expect(hintStrength({ ...base, title: "x" }, spread)).toBe(2);
    expect(hintStrength({ ...base, aliases: ["x"] }, spread)).toBe(2);
    expect(hintStrength({ ...base, keywords: ["rollback"] }, spread)).toBe(1);
    expect(hintStrength({ ...base, entities: ["Helmsman"] }, spread)).toBe(2);
  });
});
