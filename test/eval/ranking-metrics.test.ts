import { describe, expect, it } from "vitest";
import { hitAtK } from "../../src/eval/metrics/hit.js";
import { mrrAtK } from "../../src/eval/metrics/mrr.js";
import { precisionAtK } from "../../src/eval/metrics/precision.js";
import { recallAtK } from "../../src/eval/metrics/recall.js";

// Relevant means grade > 0: a (2), b (1), d (1) — three relevant; c is judged non-relevant.
const judgements = new Map([
  ["a", 2],
  ["b", 1],
  ["c", 0],
  ["d", 1],
]);
// ranks:         1    2    3    4    5
const ranking = ["c", "x", "b", "y", "a"];

describe("recallAtK", () => {
  it("divides the relevant documents found in the top k by all relevant documents", () => {
    // top 2 = c, x → 0 of 3; top 3 adds b → 1/3; top 5 adds a → 2/3 (d never retrieved).
    expect(recallAtK(ranking, judgements, 2)).toBe(0);
    expect(recallAtK(ranking, judgements, 3)).toBeCloseTo(1 / 3, 12);
    expect(recallAtK(ranking, judgements, 5)).toBeCloseTo(2 / 3, 12);
  });

  it("counts every grade above 0 as relevant, whatever the grade", () => {
    // Only a (grade 2) in the top 1 of [a, b] → 1/3; a and b → 2/3.
    expect(recallAtK(["a", "b"], judgements, 1)).toBeCloseTo(1 / 3, 12);
    expect(recallAtK(["a", "b"], judgements, 2)).toBeCloseTo(2 / 3, 12);
  });

  it("reads the whole run when k is larger than the run", () => {
    // 5 documents, k = 100: same 2/3 as k = 5.
    expect(recallAtK(ranking, judgements, 100)).toBeCloseTo(2 / 3, 12);
  });

  it("stops at rank 100 for recall@100", () => {
    // 100 non-relevant fillers, then a at rank 101: recall@100 = 0/3, recall@101 = 1/3.
    const deep = [...Array.from({ length: 100 }, (_, i) => `filler-${i}`), "a"];
    expect(recallAtK(deep, judgements, 100)).toBe(0);
    expect(recallAtK(deep, judgements, 101)).toBeCloseTo(1 / 3, 12);
  });

  it("gives 0 when the query has no relevant judgement", () => {
    expect(recallAtK(["c"], new Map([["c", 0]]), 10)).toBe(0);
  });

  it("credits a repeated document once", () => {
    // b, b, b: one relevant document found → 1/3, not 3/3.
    expect(recallAtK(["b", "b", "b"], judgements, 10)).toBeCloseTo(1 / 3, 12);
  });
});

describe("mrrAtK", () => {
  it("is the reciprocal rank of the first relevant document", () => {
    // First relevant is b at rank 3 → 1/3.
    expect(mrrAtK(ranking, judgements, 10)).toBeCloseTo(1 / 3, 12);
    expect(mrrAtK(["a"], judgements, 10)).toBe(1);
  });

  it("is 0 when the first relevant document lies beyond k", () => {
    // b is at rank 3, k = 2.
    expect(mrrAtK(ranking, judgements, 2)).toBe(0);
  });

  it("treats a judged non-relevant document like any other miss", () => {
    // c (grade 0) at rank 1, d (grade 1) at rank 2 → 1/2.
    expect(mrrAtK(["c", "d"], judgements, 10)).toBe(0.5);
  });
});

describe("hitAtK", () => {
  it("is 1 when any of the top k is relevant and 0 otherwise", () => {
    expect(hitAtK(ranking, judgements, 2)).toBe(0);
    expect(hitAtK(ranking, judgements, 3)).toBe(1);
    expect(hitAtK([], judgements, 10)).toBe(0);
  });
});

describe("precisionAtK", () => {
  it("divides the relevant documents in the top k by k", () => {
    // top 5 holds b and a → 2/5.
    expect(precisionAtK(ranking, judgements, 5)).toBeCloseTo(0.4, 12);
  });

  it("still divides by k when the run is shorter than k, as trec_eval's P_k does", () => {
    // 2 relevant among 5 retrieved, k = 10 → 2/10.
    expect(precisionAtK(ranking, judgements, 10)).toBeCloseTo(0.2, 12);
  });
});
