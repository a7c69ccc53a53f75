import { describe, expect, it } from "vitest";
import { rankRun, sortRun } from "../../src/eval/metrics/rank-run.js";

describe("rankRun", () => {
  it("orders documents by score, highest first", () => {
    expect(
      rankRun([
        { docId: "low", score: 0.1 },
        { docId: "high", score: 0.9 },
        { docId: "mid", score: 0.5 },
      ]),
    ).toEqual(["high", "mid", "low"]);
  });

  it("breaks score ties by document id descending, as trec_eval's comp_sim_docno does", () => {
    // a, b and c tie at 1: strcmp(p2, p1) sorts them c, b, a; d scores higher and stays first.
    expect(
      rankRun([
        { docId: "a", score: 1 },
        { docId: "c", score: 1 },
        { docId: "d", score: 2 },
        { docId: "b", score: 1 },
      ]),
    ).toEqual(["d", "c", "b", "a"]);
  });

  it("gives the same ranking whatever order the tied documents arrive in", () => {
    const docs = [
      { docId: "doc-10", score: 3 },
      { docId: "doc-2", score: 3 },
      { docId: "doc-1", score: 3 },
    ];
    // Byte order, not numeric: "doc-2" > "doc-10" > "doc-1".
    expect(rankRun(docs)).toEqual(["doc-2", "doc-10", "doc-1"]);
    expect(rankRun([...docs].reverse())).toEqual(["doc-2", "doc-10", "doc-1"]);
  });

  it("compares tied ids by code point, like strcmp on UTF-8", () => {
    // U+FF21 (full-width A) is below U+1F600 (emoji) by code point, though its UTF-16 unit 0xFF21
    // is above the emoji's lead surrogate 0xD83D. Descending by code point puts the emoji first.
    expect(
      rankRun([
        { docId: "\uFF21", score: 1 },
        { docId: "\u{1F600}", score: 1 },
      ]),
    ).toEqual(["\u{1F600}", "\uFF21"]);
  });

  it("keeps only the best-scoring occurrence of a duplicated document", () => {
    // a appears at 0.5 and 0.7: it ranks once, at 0.7, between b (0.9) and c (0.6).
    expect(
      rankRun([
        { docId: "a", score: 0.5 },
        { docId: "b", score: 0.9 },
        { docId: "c", score: 0.6 },
        { docId: "a", score: 0.7 },
      ]),
    ).toEqual(["b", "a", "c"]);
  });

  it("does not modify the input array", () => {
    const docs = [
      { docId: "a", score: 1 },
      { docId: "b", score: 2 },
    ];
    rankRun(docs);
    expect(docs.map((d) => d.docId)).toEqual(["a", "b"]);
  });

  it("rejects a NaN score, which has no place in a ranking", () => {
    expect(() => rankRun([{ docId: "a", score: Number.NaN }])).toThrow(/"a" has a NaN score/);
  });
});

describe("sortRun", () => {
  it("returns the deduplicated documents with their best scores", () => {
    expect(
      sortRun([
        { docId: "a", score: 0.5 },
        { docId: "a", score: 0.7 },
      ]),
    ).toEqual([{ docId: "a", score: 0.7 }]);
  });
});
