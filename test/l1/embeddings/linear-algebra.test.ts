import { describe, expect, it } from "vitest";
import {
  axpy,
  dot,
  mulberry32,
  multiply,
  orthonormalizeRows,
  randomMatrix,
  transpose,
} from "../../../src/l1/embeddings/linear-algebra.js";

describe("mulberry32", () => {
  it("repeats the same sequence for the same seed and differs for another seed", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const c = mulberry32(43);
    const first = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(first);
    expect(Array.from({ length: 5 }, () => c())).not.toEqual(first);
  });

  it("yields values in [0, 1)", () => {
    const random = mulberry32(1);
    for (let i = 0; i < 10_000; i++) {
      const x = random();
      expect(x >= 0 && x < 1).toBe(true);
    }
  });
});

describe("randomMatrix", () => {
  it("holds values in [-1, 1) centred on zero", () => {
    const m = randomMatrix(50, 40, mulberry32(7));
    expect(m.every((x) => x >= -1 && x < 1)).toBe(true);
    expect(Math.abs(m.reduce((s, x) => s + x, 0) / m.length)).toBeLessThan(0.05);
  });
});

describe("dense helpers", () => {
  it("computes a dot product over offsets, including the unrolled tail", () => {
    const x = Float64Array.from([9, 1, 2, 3, 4, 5]);
    const y = Float64Array.from([1, 1, 1, 1, 1, 2, 9]);
    expect(dot(x, 1, y, 1, 5)).toBe(1 + 2 + 3 + 4 + 10);
  });

  it("adds a scaled vector in place", () => {
    const y = Float64Array.from([1, 1, 1, 1, 1]);
    axpy(2, Float64Array.from([1, 2, 3, 4, 5]), 0, y, 0, 5);
    expect(Array.from(y)).toEqual([3, 5, 7, 9, 11]);
  });

  it("multiplies and transposes small matrices to hand-computed values", () => {
    // [[1, 2, 3], [4, 5, 6]] · [[1, 0], [0, 1], [1, 1]] = [[4, 5], [10, 11]]
    const product = multiply(Float64Array.from([1, 2, 3, 4, 5, 6]), Float64Array.from([1, 0, 0, 1, 1, 1]), 2, 3, 2);
    expect(Array.from(product)).toEqual([4, 5, 10, 11]);
    expect(Array.from(transpose(Float64Array.from([1, 2, 3, 4, 5, 6]), 2, 3))).toEqual([1, 4, 2, 5, 3, 6]);
  });
});

describe("orthonormalizeRows", () => {
  it("turns independent rows into an orthonormal set spanning the same space", () => {
    const rows = 6;
    const cols = 9;
    const original = randomMatrix(rows, cols, mulberry32(3));
    const q = Float64Array.from(original);
    expect(orthonormalizeRows(q, rows, cols)).toBe(rows);
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < rows; j++) expect(dot(q, i * cols, q, j * cols, cols)).toBeCloseTo(i === j ? 1 : 0, 12);
    }
    // Each original row is reproduced by its projection onto the basis.
    for (let i = 0; i < rows; i++) {
      const rebuilt = new Float64Array(cols);
      for (let j = 0; j < rows; j++) axpy(dot(original, i * cols, q, j * cols, cols), q, j * cols, rebuilt, 0, cols);
      for (let c = 0; c < cols; c++) expect(rebuilt[c]).toBeCloseTo(original[i * cols + c], 10);
    }
  });

  it("matches Gram-Schmidt done by hand on two vectors", () => {
    const q = Float64Array.from([3, 4, 0, 1, 1, 1]);
    orthonormalizeRows(q, 2, 3);
    // e1 = (3, 4, 0) / 5; (1, 1, 1) - (7/5) e1 = (4/25, -3/25, 1), length sqrt(26)/5
    const n = Math.sqrt(26) / 5;
    const expected = [0.6, 0.8, 0, 4 / 25 / n, -3 / 25 / n, 1 / n];
    expected.forEach((value, i) => expect(q[i]).toBeCloseTo(value, 14));
  });

  it("zeroes rows that repeat the span of earlier rows and reports the rank", () => {
    const q = Float64Array.from([1, 2, 3, 2, 4, 6, 0, 0, 0, 0, 1, 0]);
    expect(orthonormalizeRows(q, 4, 3)).toBe(2);
    expect(Array.from(q.subarray(3, 9))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(dot(q, 0, q, 9, 3)).toBeCloseTo(0, 14);
    expect(dot(q, 9, q, 9, 3)).toBeCloseTo(1, 14);
  });
});
