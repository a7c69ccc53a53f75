import { describe, expect, it } from "vitest";
import { jacobiEigen } from "../../../src/l1/embeddings/jacobi-eigen.js";
import { mulberry32 } from "../../../src/l1/embeddings/linear-algebra.js";

/** Checks A·v = λ·v for every returned pair. */
function expectEigenpairs(a: Float64Array, n: number, values: Float64Array, vectors: Float64Array): void {
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      let av = 0;
      for (let k = 0; k < n; k++) av += a[i * n + k] * vectors[k * n + j];
      expect(av).toBeCloseTo(values[j] * vectors[i * n + j], 10);
    }
  }
}

describe("jacobiEigen", () => {
  it("finds 3 and 1 for [[2, 1], [1, 2]] with eigenvectors along the diagonals", () => {
    const a = Float64Array.from([2, 1, 1, 2]);
    const { values, vectors } = jacobiEigen(a, 2);
    expect(values[0]).toBeCloseTo(3, 14);
    expect(values[1]).toBeCloseTo(1, 14);
    expect(Math.abs(vectors[0])).toBeCloseTo(Math.SQRT1_2, 14);
    expect(vectors[0] * vectors[2]).toBeCloseTo(0.5, 14);
    expect(vectors[1] * vectors[3]).toBeCloseTo(-0.5, 14);
  });

  it("finds 2 + √2, 2 and 2 - √2 for the tridiagonal [[2, 1, 0], [1, 2, 1], [0, 1, 2]]", () => {
    const a = Float64Array.from([2, 1, 0, 1, 2, 1, 0, 1, 2]);
    const { values, vectors } = jacobiEigen(a, 3);
    expect(values[0]).toBeCloseTo(2 + Math.SQRT2, 13);
    expect(values[1]).toBeCloseTo(2, 13);
    expect(values[2]).toBeCloseTo(2 - Math.SQRT2, 13);
    expectEigenpairs(a, 3, values, vectors);
  });

  it("sorts eigenvalues largest first and returns orthonormal eigenvectors for a random symmetric matrix", () => {
    const n = 12;
    const random = mulberry32(5);
    const a = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = i; j < n; j++) a[i * n + j] = a[j * n + i] = random() - 0.5;
    const { values, vectors } = jacobiEigen(a, n);
    for (let j = 1; j < n; j++) expect(values[j]).toBeLessThanOrEqual(values[j - 1]);
    let trace = 0;
    for (let i = 0; i < n; i++) trace += a[i * n + i];
    expect(values.reduce((s, x) => s + x, 0)).toBeCloseTo(trace, 12);
    for (let p = 0; p < n; p++) {
      for (let q = 0; q < n; q++) {
        let d = 0;
        for (let k = 0; k < n; k++) d += vectors[k * n + p] * vectors[k * n + q];
        expect(d).toBeCloseTo(p === q ? 1 : 0, 12);
      }
    }
    expectEigenpairs(a, n, values, vectors);
  });

  it("leaves the input matrix untouched", () => {
    const a = Float64Array.from([4, 1, 1, 3]);
    jacobiEigen(a, 2);
    expect(Array.from(a)).toEqual([4, 1, 1, 3]);
  });
});
