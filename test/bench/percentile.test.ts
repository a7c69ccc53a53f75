import { describe, expect, it } from "vitest";
import { percentile, summarize } from "../../bench/measure/percentile.js";

describe("percentile", () => {
  it("interpolates linearly between closest ranks", () => {
    expect(percentile([1, 2, 3, 4], 50)).toBe(2.5);
    expect(percentile([10, 20, 30, 40, 50], 95)).toBeCloseTo(48);
    expect(percentile([3, 1, 2], 0)).toBe(1);
    expect(percentile([3, 1, 2], 100)).toBe(3);
  });

  it("does not depend on the order of the samples and leaves them unsorted", () => {
    const samples = [5, 1, 4, 2, 3];
    expect(percentile(samples, 50)).toBe(3);
    expect(samples).toEqual([5, 1, 4, 2, 3]);
  });

  it("gives the p99 of 1..100 as 99.01", () => {
    expect(
      percentile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        99,
      ),
    ).toBeCloseTo(99.01);
  });

  it("is NaN for no samples and refuses a percentile outside 0-100", () => {
    expect(percentile([], 50)).toBeNaN();
    expect(() => percentile([1], 101)).toThrow(RangeError);
    expect(() => percentile([1], Number.NaN)).toThrow(RangeError);
  });

  it("summarizes n, mean, percentiles, min and max", () => {
    expect(summarize([4, 1, 3, 2])).toEqual({
      n: 4,
      mean: 2.5,
      p50: 2.5,
      p95: expect.closeTo(3.85),
      p99: expect.closeTo(3.97),
      min: 1,
      max: 4,
    });
    expect(summarize([]).n).toBe(0);
  });
});
