import { describe, expect, it } from "vitest";
import { evaluateRun } from "../../src/eval/metrics/evaluate-run.js";
import type { Qrels, RankedDoc, Run } from "../../src/eval/metrics/types.js";

const qrels: Qrels = new Map([
  // graded: d1 (2) and d2 (1) relevant, d3 judged non-relevant
  ["q1", new Map([["d1", 2], ["d2", 1], ["d3", 0]])],
  // one relevant document, retrieved at rank 11
  ["q2", new Map([["d4", 1]])],
  // judged, but nothing relevant → left out of the mean
  ["q3", new Map([["d5", 0]])],
  // judged and relevant, but the run has no ranking for it → scores 0
  ["q4", new Map([["d6", 1]])],
]);

const fillers: RankedDoc[] = Array.from({ length: 10 }, (_, i) => ({ docId: `n${i}`, score: 20 - i }));

const run: Run = new Map([
  // d1 and d2 tie at 0.8 → id descending puts d2 before d1; the duplicate d1 at 0.1 is dropped.
  // Ranking: d3, d2, d1.
  [
    "q1",
    [
      { docId: "d3", score: 0.9 },
      { docId: "d1", score: 0.8 },
      { docId: "d2", score: 0.8 },
      { docId: "d1", score: 0.1 },
    ],
  ],
  // Ten fillers scored 20..11, then d4 at 10 → rank 11.
  ["q2", [...fillers, { docId: "d4", score: 10 }]],
  ["q3", [{ docId: "d5", score: 1 }]],
  // Not in qrels at all → unjudged, ignored.
  ["q5", [{ docId: "d1", score: 1 }]],
]);

describe("evaluateRun", () => {
  const result = evaluateRun(run, qrels);

  it("scores graded relevance, ties and duplicates through rankRun", () => {
    // q1 ranking d3 (0), d2 (1), d1 (2):
    //   DCG  = 0 + 1/log2(3) + 2/log2(4) = 0.6309298 + 1 = 1.6309298
    //   IDCG = 2/1 + 1/log2(3) = 2.6309298 → nDCG@10 = 0.6199062
    //   Recall@10 = Recall@100 = 2/2 = 1; MRR@10 = 1/2 (d2 at rank 2)
    const q1 = result.perQuery.get("q1");
    expect(q1?.ndcgAt10).toBeCloseTo(0.6199062, 6);
    expect(q1?.recallAt10).toBe(1);
    expect(q1?.recallAt100).toBe(1);
    expect(q1?.mrrAt10).toBe(0.5);
  });

  it("finds a relevant document at rank 11 with recall@100 but not with the @10 metrics", () => {
    expect(result.perQuery.get("q2")).toEqual({ ndcgAt10: 0, recallAt10: 0, recallAt100: 1, mrrAt10: 0 });
  });

  it("scores a judged query that is missing from the run as 0", () => {
    expect(result.perQuery.get("q4")).toEqual({ ndcgAt10: 0, recallAt10: 0, recallAt100: 0, mrrAt10: 0 });
    expect(result.missingFromRun).toBe(1);
  });

  it("leaves queries without judgements or without relevant documents out of the mean and counts them", () => {
    expect(result.perQuery.has("q3")).toBe(false);
    expect(result.perQuery.has("q5")).toBe(false);
    expect(result.noRelevantQueries).toBe(1);
    expect(result.unjudgedQueries).toBe(1);
    expect(result.evaluatedQueries).toBe(3);
  });

  it("averages over the evaluated queries only", () => {
    // Evaluated: q1, q2, q4 (divisor 3).
    //   nDCG@10    = (0.6199062 + 0 + 0) / 3 = 0.2066354
    //   Recall@10  = (1 + 0 + 0) / 3 = 1/3
    //   Recall@100 = (1 + 1 + 0) / 3 = 2/3
    //   MRR@10     = (0.5 + 0 + 0) / 3 = 1/6
    expect(result.mean.ndcgAt10).toBeCloseTo(0.2066354, 6);
    expect(result.mean.recallAt10).toBeCloseTo(1 / 3, 12);
    expect(result.mean.recallAt100).toBeCloseTo(2 / 3, 12);
    expect(result.mean.mrrAt10).toBeCloseTo(1 / 6, 12);
  });

  it("reports zeros and no evaluated queries when nothing is judged", () => {
    const empty = evaluateRun(run, new Map());
    expect(empty.evaluatedQueries).toBe(0);
    expect(empty.unjudgedQueries).toBe(4);
    expect(empty.mean).toEqual({ ndcgAt10: 0, recallAt10: 0, recallAt100: 0, mrrAt10: 0 });
  });

  it("drops documents whose id equals the query id when ignoreIdenticalIds is set", () => {
    // The query "dup" retrieves itself first; BEIR ignores that hit, so "rel" moves to rank 1.
    const selfRun: Run = new Map([
      [
        "dup",
        [
          { docId: "dup", score: 2 },
          { docId: "rel", score: 1 },
        ],
      ],
    ]);
    const selfQrels: Qrels = new Map([["dup", new Map([["rel", 1]])]]);
    expect(evaluateRun(selfRun, selfQrels).perQuery.get("dup")?.mrrAt10).toBe(0.5);
    expect(evaluateRun(selfRun, selfQrels, { ignoreIdenticalIds: true }).perQuery.get("dup")?.mrrAt10).toBe(1);
  });
});
