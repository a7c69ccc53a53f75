import { describe, expect, it } from "vitest";
import hitAtK from "../../../src/eval/assertions/hit-at-k.js";
import mrrAt10 from "../../../src/eval/assertions/mrr-at-10.js";
import ndcgAt10 from "../../../src/eval/assertions/ndcg-at-10.js";
import recallAtK from "../../../src/eval/assertions/recall-at-k.js";
import { grade, rankedResult, type CaseOptions } from "../helpers/assertion-context.js";

// Gold a (graded 2, listed first), b and c (graded 1). Ranks: x=1, b=2, a=3, y=4, z=5, c=6.
const GOLD = ["a", "b", "c"];
const RANKED = ["x", "b", "a", "y", "z", "c"];
const base: CaseOptions = { gold: GOLD, artifact: rankedResult(RANKED) };
const log2 = Math.log2;

describe("hit-at-k assertion", () => {
  it("scores hit@5 = 1 when a gold source is in the top 5 (k defaults to 5)", () => {
    const result = grade(hitAtK, base);
    expect(result).toMatchObject({ pass: true, score: 1, namedScores: { "hit@5": 1 } });
    expect(result.reason).toBe("hit@5 = 1.000 (min 0); top 5: x, b, a, y, z");
  });

  it("honours config.k: hit@1 is 0 when the top source is not gold", () => {
    const result = grade(hitAtK, { ...base, config: { k: 1 } });
    expect(result.score).toBe(0);
    expect(result.namedScores).toEqual({ "hit@1": 0 });
    expect(result.reason).toContain("top 1: x");
  });

  it("honours config.min: a miss fails when min is 1 and passes with the default min 0", () => {
    expect(grade(hitAtK, { ...base, config: { k: 1, min: 1 } })).toMatchObject({ pass: false, score: 0 });
    expect(grade(hitAtK, { ...base, config: { k: 1 } })).toMatchObject({ pass: true, score: 0 });
  });

  it("reports top none for empty evidence", () => {
    const result = grade(hitAtK, { gold: GOLD, artifact: rankedResult([]) });
    expect(result.score).toBe(0);
    expect(result.reason).toContain("top 5: none");
  });
});

describe("recall-at-k assertion", () => {
  it("scores recall@5 = 2/3 when two of three gold sources are in the top 5", () => {
    const result = grade(recallAtK, base);
    expect(result.score).toBeCloseTo(2 / 3, 12);
    expect(result.namedScores?.["recall@5"]).toBeCloseTo(2 / 3, 12);
    expect(result.reason).toBe("recall@5 = 0.667 (min 0); found 2 of 3 gold sources");
  });

  it("honours config.k, also when YAML hands it over as a string", () => {
    expect(grade(recallAtK, { ...base, config: { k: 2 } }).score).toBeCloseTo(1 / 3, 12);
    const six = grade(recallAtK, { ...base, config: { k: "6" } });
    expect(six.score).toBe(1);
    expect(six.namedScores).toEqual({ "recall@6": 1 });
  });

  it("honours config.min", () => {
    expect(grade(recallAtK, { ...base, config: { min: 0.7 } }).pass).toBe(false);
    expect(grade(recallAtK, { ...base, config: { min: 0.6 } }).pass).toBe(true);
  });
});

describe("mrr-at-10 assertion", () => {
  it("scores 1/2 when the first gold source is at rank 2", () => {
    const result = grade(mrrAt10, base);
    expect(result).toMatchObject({ pass: true, score: 0.5, namedScores: { "MRR@10": 0.5 } });
    expect(result.reason).toBe("MRR@10 = 0.500 (min 0); first gold at rank 2");
  });

  it("scores 0 when no gold source is in the top 10, ignoring gold below rank 10", () => {
    const deep = [...Array.from({ length: 10 }, (_, i) => `filler-${i}`), "a"];
    const result = grade(mrrAt10, { gold: GOLD, artifact: rankedResult(deep) });
    expect(result.score).toBe(0);
    expect(result.reason).toContain("first gold at rank none");
  });

  it("honours config.min", () => {
    const result = grade(mrrAt10, { ...base, config: { min: 0.75 } });
    expect(result).toMatchObject({ pass: false, score: 0.5 });
    expect(result.reason).toContain("(min 0.75)");
  });
});

describe("ndcg-at-10 assertion", () => {
  it("equals the hand-computed nDCG@10 with linear gains: first gold 2, other gold 1", () => {
    // DCG: b at rank 2 → 1/log2 3; a at rank 3 → 2/log2 4; c at rank 6 → 1/log2 7.
    // Ideal: 2 at rank 1, 1 at rank 2, 1 at rank 3.
    const expected = (1 / log2(3) + 2 / log2(4) + 1 / log2(7)) / (2 + 1 / log2(3) + 1 / log2(4));
    const result = grade(ndcgAt10, base);
    expect(result.score).toBeCloseTo(expected, 12);
    expect(result.namedScores?.["nDCG@10"]).toBeCloseTo(expected, 12);
    expect(result.reason).toBe(`nDCG@10 = ${expected.toFixed(3)} (min 0); top: x`);
  });

  it("grades the first gold source above the others, so the gold order changes the score", () => {
    const artifact = rankedResult(["a", "b"]);
    expect(grade(ndcgAt10, { gold: ["a", "b"], artifact }).score).toBeCloseTo(1, 12);
    // b is now graded 2 but ranked second: (1 + 2/log2 3) / (2 + 1/log2 3).
    expect(grade(ndcgAt10, { gold: ["b", "a"], artifact }).score).toBeCloseTo((1 + 2 / log2(3)) / (2 + 1 / log2(3)), 12);
  });

  it("honours config.min", () => {
    expect(grade(ndcgAt10, { ...base, config: { min: 0.9 } }).pass).toBe(false);
    expect(grade(ndcgAt10, { ...base, config: { min: 0.5 } }).pass).toBe(true);
  });
});
