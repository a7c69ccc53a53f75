import { describe, expect, it } from "vitest";
import { HintIndex, type HintField } from "../../src/l0/hint-index.js";
import { phraseMatches } from "../../src/l0/hints.js";
import { tokenize } from "../../src/text/tokenize.js";
import type { Chunk } from "../../src/types.js";

function chunk(file: string, meta: Partial<Chunk["meta"]> & { title?: string }): Chunk {
  return {
    source: `${file}#top`,
    file,
    title: meta.title,
    breadcrumb: [],
    content: "text",
    meta: { keywords: [], entities: [], aliases: [], ...meta },
  };
}

const CHUNKS = [
  chunk("billing/refunds.md", {
    title: "Refunds and Credit Notes",
    keywords: ["refund", "credit note"],
    domain: "billing",
  }),
  chunk("billing/refunds.md", {
    title: "Refunds and Credit Notes",
    keywords: ["refund", "credit note"],
    domain: "billing",
  }),
  chunk("deploy/rollback.md", {
    title: "Release Rollback",
    keywords: ["rollback"],
    entities: ["Helmsman"],
    domain: "deployment",
  }),
  chunk("billing/batch.md", { title: "Invoice Batch Rollback", keywords: ["rollback"], domain: "billing" }),
];

function matcher(query: string) {
  const terms = new Set(tokenize(query));
  return (field: HintField, phrase: string) => phraseMatches(field, terms, tokenize(phrase));
}

describe("HintIndex", () => {
  it("indexes each distinct phrase once and finds the files whose phrases the query matches", () => {
    const index = HintIndex.build(CHUNKS);
    // refund title, refund, credit note, billing; release rollback, rollback, helmsman, deployment; invoice batch rollback
    expect(index.phraseCount).toBe(9);
    expect(
      index.matchingFiles("how do I roll back with helmsman", matcher("how do I roll back with helmsman")),
    ).toEqual(["deploy/rollback.md"]);
    expect(index.matchingFiles("rollback", matcher("rollback")).sort()).toEqual([
      "billing/batch.md",
      "deploy/rollback.md",
    ]);
    expect(index.matchingFiles("credit", matcher("credit"))).toEqual([]);
  });

  it("filters files inside the lookup", () => {
    const index = HintIndex.build(CHUNKS);
    expect(index.matchingFiles("rollback", matcher("rollback"), (file) => file.startsWith("billing/"))).toEqual([
      "billing/batch.md",
    ]);
  });

  it("removes and adds files in place, answering as an index built from the new corpus", () => {
    const index = HintIndex.build(CHUNKS);
    index.remove(["deploy/rollback.md"]);
    const replacement = chunk("deploy/rollback.md", {
      title: "Canary Release",
      keywords: ["canary"],
      domain: "deployment",
    });
    index.add([replacement]);
    const rebuilt = HintIndex.build([...CHUNKS.slice(0, 2), replacement, CHUNKS[3]]);
    for (const query of ["rollback", "helmsman", "canary release", "refund credit note", "deployment"]) {
      expect(index.matchingFiles(query, matcher(query)), query).toEqual(rebuilt.matchingFiles(query, matcher(query)));
    }
    expect(index.phraseCount).toBe(rebuilt.phraseCount);
    expect(index.matchingFiles("helmsman", matcher("helmsman"))).toEqual([]);
  });

  it("keeps each phrase's files in path order without repeats, whatever order and batches they arrive in", () => {
    const files = ["b/2.md", "a/9.md", "c/1.md", "a/10.md", "b/1.md"];
    const shared = (file: string) =>
      chunk(file, { title: `Guide ${file}`, keywords: ["shared topic", "shared topic"] });
    const inOne = HintIndex.build(files.map(shared));
    const inBatches = HintIndex.build(files.slice(0, 2).map(shared));
    inBatches.add(files.slice(2, 4).map(shared));
    inBatches.add([shared(files[4]), shared(files[0])]);
    const sorted = [...files].sort();
    expect(inOne.matchingFiles("shared topic", matcher("shared topic"))).toEqual(sorted);
    expect(inBatches.matchingFiles("shared topic", matcher("shared topic"))).toEqual(sorted);
    inBatches.remove(["a/9.md"]);
    inBatches.add([shared("a/9.md")]);
    expect(inBatches.matchingFiles("shared topic", matcher("shared topic"))).toEqual(sorted);
  });

  it("lists a file once when its chunks come apart in the list it is built from, and removes it whole", () => {
    const apart = HintIndex.build([CHUNKS[0], CHUNKS[3], CHUNKS[1]]);
    expect(apart.matchingFiles("refund", matcher("refund"))).toEqual(["billing/refunds.md"]);
    expect(apart.matchingFiles("rollback", matcher("rollback"))).toEqual(["billing/batch.md"]);
    apart.remove(["billing/refunds.md"]);
    expect(apart.matchingFiles("refund", matcher("refund"))).toEqual([]);
    expect(apart.phraseCount).toBe(HintIndex.build([CHUNKS[3]]).phraseCount);
  });
});
