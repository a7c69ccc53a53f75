import { describe, expect, it } from "vitest";
import { formatTrecRun } from "../../src/eval/beir/format-trec-run.js";
import { parseTrecRun } from "../../src/eval/beir/parse-trec-run.js";
import type { Run } from "../../src/eval/metrics/types.js";

const run: Run = new Map([
  [
    "q1",
    [
      { docId: "a", score: 0.5 },
      { docId: "b", score: 0.9 },
      { docId: "c", score: 0.5 },
      { docId: "b", score: 0.1 },
    ],
  ],
  ["q2", [{ docId: "z", score: 1.25 }]],
]);

describe("formatTrecRun", () => {
  it("writes one `qid Q0 docid rank score tag` line per document, ranked as rankRun ranks", () => {
    // q1: b (0.9), then the 0.5 tie by id descending c, a; the duplicate b at 0.1 is dropped.
    expect(formatTrecRun(run, "bm25")).toBe(
      ["q1 Q0 b 1 0.9 bm25", "q1 Q0 c 2 0.5 bm25", "q1 Q0 a 3 0.5 bm25", "q2 Q0 z 1 1.25 bm25", ""].join("\n"),
    );
  });

  it("writes at most depth documents per query", () => {
    expect(formatTrecRun(run, "t", 1)).toBe("q1 Q0 b 1 0.9 t\nq2 Q0 z 1 1.25 t\n");
  });

  it("rejects a tag or id containing whitespace, which would shift the columns", () => {
    expect(() => formatTrecRun(run, "my run")).toThrow(/tag must be non-empty and contain no whitespace/);
    expect(() => formatTrecRun(new Map([["q 1", []]]), "t")).toThrow(/query id/);
  });

  it("rejects a non-finite score", () => {
    expect(() => formatTrecRun(new Map([["q", [{ docId: "d", score: Infinity }]]]), "t")).toThrow(/finite scores/);
  });
});

describe("parseTrecRun", () => {
  it("reads back what formatTrecRun wrote", () => {
    const parsed = parseTrecRun(formatTrecRun(run, "bm25"));
    expect(parsed).toEqual(
      new Map([
        [
          "q1",
          [
            { docId: "b", score: 0.9 },
            { docId: "c", score: 0.5 },
            { docId: "a", score: 0.5 },
          ],
        ],
        ["q2", [{ docId: "z", score: 1.25 }]],
      ]),
    );
  });

  it("keeps full score precision through a round trip", () => {
    const score = 0.1 + 0.2;
    const parsed = parseTrecRun(formatTrecRun(new Map([["q", [{ docId: "d", score }]]]), "t"));
    expect(parsed.get("q")?.[0].score).toBe(score);
  });

  it("ignores the rank column and accepts tabs, CRLF and blank lines", () => {
    const parsed = parseTrecRun("q1\tQ0\tx\t7\t1e-3\ttag\r\n\r\nq1 Q0 y 1 2 tag\r\n");
    expect(parsed.get("q1")).toEqual([
      { docId: "x", score: 0.001 },
      { docId: "y", score: 2 },
    ]);
  });

  it("names the line with the wrong number of fields", () => {
    expect(() => parseTrecRun("q1 Q0 a 1 0.5 t\nq1 Q0 b 2 0.4\n")).toThrow(
      'TREC run line 2: expected 6 fields "qid Q0 docid rank score tag", found 5.',
    );
  });

  it("names the line with a score that is not a number", () => {
    expect(() => parseTrecRun("q1 Q0 a 1 high t\n")).toThrow('TREC run line 1: score "high" is not a finite number.');
  });
});
