import { describe, expect, it } from "vitest";
import { percentile, runQueries, toRankedDocs } from "../../src/eval/runner/run-queries.js";
import { createRetrievalGraph } from "../../src/graph/retrieval-graph.js";
import { MAX_QUERY_CHARS } from "../../src/graph/lookup-schema.js";
import { FakeL0Searcher, fakeSource, makeCandidate, NO_HINTS } from "../helpers/retrieval-fakes.js";
import { l0Block, lookupResult } from "./helpers/assertion-context.js";

function resultWithScores(scores: (number | undefined)[]) {
  return lookupResult({ evidence: scores.map((score, i) => l0Block(`doc-${i}`, score === undefined ? {} : { score })) });
}

function expectStrictlyDecreasing(scores: number[]): void {
  for (let i = 1; i < scores.length; i++) expect(scores[i], `rank ${i + 1}`).toBeLessThan(scores[i - 1]);
}

describe("toRankedDocs", () => {
  it("keeps the evidence order and the fused scores when they already decrease", () => {
    expect(toRankedDocs(resultWithScores([0.9, 0.5, 0.2]), 10)).toEqual([
      { docId: "doc-0", score: 0.9 },
      { docId: "doc-1", score: 0.5 },
      { docId: "doc-2", score: 0.2 },
    ]);
  });

  it("nudges tied fused scores down by a millionth each, so the scores strictly decrease in evidence order", () => {
    const ranked = toRankedDocs(resultWithScores([0.9, 0.5, 0.5, 0.5, 0.2]), 10);
    expect(ranked.map((doc) => doc.docId)).toEqual(["doc-0", "doc-1", "doc-2", "doc-3", "doc-4"]);
    expect(ranked.map((doc) => doc.score)).toEqual([0.9, 0.5, 0.499999, 0.499998, 0.2]);
  });

  it("treats scores that only tie after rounding to 6 decimals as ties", () => {
    const ranked = toRankedDocs(resultWithScores([0.3000004, 0.3000001]), 10);
    expect(ranked.map((doc) => doc.score)).toEqual([0.3, 0.299999]);
  });

  it("keeps the tool's order even when a later block has a higher score", () => {
    const ranked = toRankedDocs(resultWithScores([0.4, 0.8, 0.4]), 10);
    expect(ranked.map((doc) => doc.docId)).toEqual(["doc-0", "doc-1", "doc-2"]);
    expectStrictlyDecreasing(ranked.map((doc) => doc.score));
  });

  it("scores blocks without a fused score by depth minus rank", () => {
    expect(toRankedDocs(resultWithScores([undefined, undefined, undefined]), 10).map((doc) => doc.score)).toEqual([10, 9, 8]);
  });

  it("keeps scores strictly decreasing through a long run of ties", () => {
    const ranked = toRankedDocs(resultWithScores(Array.from({ length: 50 }, () => 0.000_01)), 50);
    expect(ranked).toHaveLength(50);
    expectStrictlyDecreasing(ranked.map((doc) => doc.score));
  });

  it("returns nothing for a lookup without evidence", () => {
    expect(toRankedDocs(resultWithScores([]), 10)).toEqual([]);
  });
});

describe("runQueries", () => {
  it("runs a query longer than a lookup takes on its head and counts it, where the graph would refuse it whole", async () => {
    const l0 = new FakeL0Searcher({ hints: NO_HINTS, candidates: [makeCandidate("doc-a.md#a", 0.5)] });
    const graph = createRetrievalGraph({ knowledgeBase: fakeSource({ l0, l1: null }), tracePath: null });
    const long = `${"word ".repeat(MAX_QUERY_CHARS / 5)}tail`;
    await expect(graph.invoke({ query: long })).rejects.toThrow(/1-1000 characters/);

    const queries = await runQueries(graph, [{ id: "q1", text: "short" }, { id: "q2", text: long }], 10, () => {});

    expect(queries.cutQueries).toBe(1);
    expect(l0.calls.map((call) => call.query.length)).toEqual([5, MAX_QUERY_CHARS]);
    expect([...queries.run.keys()]).toEqual(["q1", "q2"]);
  });
});

describe("percentile", () => {
  const latencies = [5, 1, 4, 2, 3];

  it("returns the nearest-rank percentile of unsorted values", () => {
    expect(percentile(latencies, 50)).toBe(3);
    expect(percentile(latencies, 20)).toBe(1);
    expect(percentile(latencies, 21)).toBe(2);
    expect(percentile(latencies, 95)).toBe(5);
  });

  it("returns the minimum for p 0 and the maximum for p 100", () => {
    expect(percentile(latencies, 0)).toBe(1);
    expect(percentile(latencies, 100)).toBe(5);
  });

  it("returns 0 for no values", () => {
    expect(percentile([], 50)).toBe(0);
  });

  it("does not reorder its input", () => {
    percentile(latencies, 50);
    expect(latencies).toEqual([5, 1, 4, 2, 3]);
  });
});
