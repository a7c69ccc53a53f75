import { describe, expect, it } from "vitest";
import { incompleteBeta, mulberry32, pairedRandomizationTest, pairedTTest, studentTwoSidedP } from "../../src/eval/metrics/index.js";
import { LookupKnowledgeError } from "../../src/errors.js";

describe("pairedRandomizationTest", () => {
  it("enumerates all 2^n sign flips when that is within the budget: differences 1, 2, 3 give p = 2/8", () => {
    // Only all-plus (sum 6) and all-minus (sum -6) reach |sum| >= 6 among the 8 assignments.
    const result = pairedRandomizationTest([2, 3, 4], [1, 1, 1]);
    expect(result).toEqual({ n: 3, meanDifference: 2, pValue: 0.25, method: "exact", assignments: 8 });
  });

  it("counts assignments as extreme as the observed one by hand for two more cases", () => {
    // Differences 1, 1, 2: the 8 sums are 4, 2, 2, 0, 0, -2, -2, -4 (observed 4): |sum| >= 4 in 2 of 8.
    expect(pairedRandomizationTest([1, 1, 2], [0, 0, 0]).pValue).toBe(0.25);
    // Differences 1, -1, 2: sums 2, 4, 0, 2, -2, 0, -4, -2 (observed 2): |sum| >= 2 in 6 of 8.
    expect(pairedRandomizationTest([1, 0, 2], [0, 1, 0]).pValue).toBe(0.75);
  });

  it("gives p = 1 when the two variants score every query the same", () => {
    expect(pairedRandomizationTest([0.5, 0.2, 1], [0.5, 0.2, 1]).pValue).toBe(1);
    expect(pairedRandomizationTest([], []).pValue).toBe(1);
  });

  it("is symmetric: swapping the variants flips the sign of the mean difference and keeps p", () => {
    const a = Array.from({ length: 40 }, (_, i) => ((i * 37) % 11) / 10);
    const b = Array.from({ length: 40 }, (_, i) => ((i * 17) % 13) / 12);
    const ab = pairedRandomizationTest(a, b, { permutations: 2000, seed: 7 });
    const ba = pairedRandomizationTest(b, a, { permutations: 2000, seed: 7 });
    expect(ba.meanDifference).toBeCloseTo(-ab.meanDifference, 12);
    expect(ba.pValue).toBe(ab.pValue);
  });

  it("samples with a fixed seed: the same inputs give the same p, and p stays in (0, 1]", () => {
    const a = Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? 1 : 0.4));
    const b = Array.from({ length: 60 }, (_, i) => (i % 4 === 0 ? 1 : 0.35));
    const first = pairedRandomizationTest(a, b);
    expect(first.method).toBe("sampled");
    expect(first.assignments).toBe(10_000);
    expect(pairedRandomizationTest(a, b)).toEqual(first);
    expect(first.pValue).toBeGreaterThan(0);
    expect(first.pValue).toBeLessThanOrEqual(1);
  });

  it("finds a consistent gain significant and never reports p below 1 / (permutations + 1)", () => {
    const b = Array.from({ length: 50 }, (_, i) => (i % 5) / 10);
    const a = b.map((value) => value + 0.1);
    const result = pairedRandomizationTest(a, b, { permutations: 999 });
    expect(result.pValue).toBe(1 / 1000);
  });

  it("agrees with the exact p when sampling a small case", () => {
    // 2^3 = 8 assignments > 4 permutations: sampled; with many samples it approaches the exact 0.25.
    const sampled = pairedRandomizationTest([2, 3, 4], [1, 1, 1], { permutations: 4 });
    expect(sampled.method).toBe("sampled");
    const many = pairedRandomizationTest(Array(12).fill(1).concat([5]), Array(13).fill(0), { permutations: 20_000 });
    const exact = pairedRandomizationTest(Array(12).fill(1).concat([5]), Array(13).fill(0), { permutations: 2 ** 13 });
    expect(exact.method).toBe("exact");
    expect(Math.abs(many.pValue - exact.pValue)).toBeLessThan(0.01);
  });

  it("rejects lists of different lengths and non-finite values with INVALID_OPTION", () => {
    expect(() => pairedRandomizationTest([1, 2], [1])).toThrow(LookupKnowledgeError);
    expect(() => pairedRandomizationTest([1, 2], [1])).toThrow(/same length, got 2 and 1/);
    expect(() => pairedRandomizationTest([Number.NaN], [1])).toThrow(/finite numbers/);
  });
});

describe("pairedTTest", () => {
  it("matches a hand computation with 2 degrees of freedom: differences 1, 2, 3", () => {
    // mean 2, sd 1, se 1/sqrt(3), t = 2 sqrt(3); with df 2, p = 1 - |t| / sqrt(t^2 + 2).
    const result = pairedTTest([2, 3, 4], [1, 1, 1]);
    const t = 2 * Math.sqrt(3);
    expect(result.t).toBeCloseTo(t, 12);
    expect(result.df).toBe(2);
    expect(result.pValue).toBeCloseTo(1 - t / Math.sqrt(t * t + 2), 10);
    expect(result.pValue).toBeCloseTo(0.0742, 4);
  });

  it("matches the Cauchy closed form with 1 degree of freedom", () => {
    // differences 1 and 3: mean 2, sd sqrt(2), t = 2 / (sqrt(2)/sqrt(2)) = 2; p = 1 - (2/pi) atan(2).
    const result = pairedTTest([1, 3], [0, 0]);
    expect(result.t).toBeCloseTo(2, 12);
    expect(result.pValue).toBeCloseTo(1 - (2 / Math.PI) * Math.atan(2), 10);
  });

  it("gives p = 1 for no difference, p = 0 for a constant non-zero difference, p = 1 below two pairs", () => {
    expect(pairedTTest([1, 2, 3], [1, 2, 3])).toMatchObject({ pValue: 1, t: 0 });
    expect(pairedTTest([2, 3, 4], [1, 2, 3])).toMatchObject({ pValue: 0, t: Number.POSITIVE_INFINITY });
    expect(pairedTTest([1], [0]).pValue).toBe(1);
  });

  it("is symmetric in its two arguments", () => {
    const a = [0.1, 0.5, 0.9, 0.3, 0.7];
    const b = [0.2, 0.1, 0.8, 0.6, 0.2];
    expect(pairedTTest(b, a).t).toBeCloseTo(-pairedTTest(a, b).t, 12);
    expect(pairedTTest(b, a).pValue).toBeCloseTo(pairedTTest(a, b).pValue, 12);
  });
});

describe("studentTwoSidedP and incompleteBeta", () => {
  it("give the textbook critical values: t 2.228 with 10 df and t 1.96 with many df are p 0.05", () => {
    expect(studentTwoSidedP(2.228, 10)).toBeCloseTo(0.05, 3);
    expect(studentTwoSidedP(1.96, 100_000)).toBeCloseTo(0.05, 3);
    expect(studentTwoSidedP(0, 5)).toBeCloseTo(1, 12);
  });

  it("has I_x(1, 1) = x and I_x(a, b) = 1 - I_(1-x)(b, a)", () => {
    expect(incompleteBeta(0.3, 1, 1)).toBeCloseTo(0.3, 12);
    expect(incompleteBeta(0.2, 2.5, 4) + incompleteBeta(0.8, 4, 2.5)).toBeCloseTo(1, 12);
  });
});

describe("mulberry32", () => {
  it("repeats its sequence for a seed and stays in [0, 1)", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const values = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(values);
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    expect(mulberry32(43)()).not.toBe(values[0]);
  });
});
