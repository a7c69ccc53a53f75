import { describe, expect, it } from "vitest";
import { ndcgAtK } from "../../src/eval/metrics/ndcg.js";

// Gain is the grade itself (linear, as trec_eval's ndcg_cut); rank r is discounted by log2(r + 1):
// log2(2) = 1, log2(3) ≈ 1.5849625, log2(4) = 2, log2(5) ≈ 2.3219281.
const graded = new Map([
  ["a", 2],
  ["b", 1],
  ["c", 0],
  ["d", 1],
]);

describe("ndcgAtK", () => {
  it("uses the grade as the gain and log2(rank + 1) as the discount", () => {
    // ranking c, a, x, b:
    //   DCG  = 0/1 + 2/log2(3) + 0/2 + 1/log2(5) = 1.2618595 + 0.4306766 = 1.6925361
    //   IDCG = grades 2, 1, 1 at ranks 1..3 = 2/1 + 1/log2(3) + 1/log2(4) = 2 + 0.6309298 + 0.5 = 3.1309298
    //   nDCG = 1.6925361 / 3.1309298 = 0.5405858
    expect(ndcgAtK(["c", "a", "x", "b"], graded, 10)).toBeCloseTo(0.5405858, 6);
  });

  it("cuts both the ranking and the ideal ranking at k", () => {
    // k = 2: DCG = 0 + 2/log2(3) = 1.2618595; IDCG@2 = 2 + 1/log2(3) = 2.6309298; nDCG = 0.4796249
    expect(ndcgAtK(["c", "a", "x", "b"], graded, 2)).toBeCloseTo(0.4796249, 6);
  });

  it("scores a perfect graded ranking as 1", () => {
    // a (2), then b and d (1 each): DCG equals IDCG.
    expect(ndcgAtK(["a", "d", "b", "c"], graded, 10)).toBeCloseTo(1, 12);
  });

  it("keeps the full ideal when k is larger than the run", () => {
    // Only "a" retrieved, k = 10 over a 1-document run:
    //   DCG = 2/1 = 2; IDCG = 2 + 1/log2(3) + 1/log2(4) = 3.1309298; nDCG = 0.6387878
    expect(ndcgAtK(["a"], graded, 10)).toBeCloseTo(0.6387878, 6);
  });

  it("gives 0 when nothing is relevant, since the ideal DCG is 0", () => {
    expect(ndcgAtK(["c", "x"], new Map([["c", 0]]), 10)).toBe(0);
    expect(ndcgAtK(["c"], new Map(), 10)).toBe(0);
  });

  it("gives 0 for an empty ranking", () => {
    expect(ndcgAtK([], graded, 10)).toBe(0);
  });

  it("credits a repeated document only at its first position", () => {
    // a, a: the second "a" adds nothing, so DCG = 2 and nDCG = 2 / 3.1309298 = 0.6387878, never above 1.
    expect(ndcgAtK(["a", "a"], graded, 10)).toBeCloseTo(0.6387878, 6);
  });

  it("rejects a cutoff that is not a positive integer", () => {
    expect(() => ndcgAtK(["a"], graded, 0)).toThrow(/positive integer, got 0/);
    expect(() => ndcgAtK(["a"], graded, 2.5)).toThrow(/positive integer/);
    expect(() => ndcgAtK(["a"], graded, Number.NaN)).toThrow(/positive integer/);
  });
});
