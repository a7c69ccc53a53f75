import { describe, expect, it } from "vitest";
import { randomizedSvd } from "../../../src/l1/embeddings/randomized-svd.js";
import {
  multiplySparse,
  multiplySparseTransposed,
  sparseFromRows,
  type SparseVector,
} from "../../../src/l1/embeddings/sparse-matrix.js";

function row(entries: Record<number, number>): SparseVector {
  const indices = Int32Array.from(Object.keys(entries).map(Number)).sort();
  return { indices, values: Float64Array.from(indices, (i) => entries[i]) };
}

describe("sparse products", () => {
  // A = [[1, 0, 2], [0, 3, 0]]
  const a = sparseFromRows([row({ 0: 1, 2: 2 }), row({ 1: 3 })], 3);

  it("multiplies A by a dense matrix", () => {
    // A · [[1, 2], [3, 4], [5, 6]] = [[11, 14], [9, 12]]
    expect(Array.from(multiplySparse(a, Float64Array.from([1, 2, 3, 4, 5, 6]), 2))).toEqual([11, 14, 9, 12]);
  });

  it("multiplies the transpose of A by a dense matrix", () => {
    // Aᵀ · [[1], [2]] = [[1], [6], [2]]
    expect(Array.from(multiplySparseTransposed(a, Float64Array.from([1, 2]), 1))).toEqual([1, 6, 2]);
  });

  it("rejects a row that points outside the columns", () => {
    expect(() => sparseFromRows([row({ 4: 1 })], 3)).toThrow(/column 4, outside \[0, 3\)/);
  });
});

describe("randomizedSvd", () => {
  it.each([0, 1, 2, 3])("recovers the golden-ratio singular values of [[1, 1], [0, 1]] (seed %i)", (seed) => {
    const a = sparseFromRows([row({ 0: 1, 1: 1 }), row({ 1: 1 })], 2);
    const { singularValues, rightVectors } = randomizedSvd(a, { components: 2, seed, powerIterations: 2 });
    const phi = (1 + Math.sqrt(5)) / 2;
    expect(singularValues[0]).toBeCloseTo(phi, 12);
    expect(singularValues[1]).toBeCloseTo(1 / phi, 12);
    // Right singular vectors are orthonormal and A·v has length σ.
    const v = [
      [rightVectors[0], rightVectors[2]],
      [rightVectors[1], rightVectors[3]],
    ];
    expect(v[0][0] * v[1][0] + v[0][1] * v[1][1]).toBeCloseTo(0, 12);
    v.forEach((vec, j) => expect(Math.hypot(vec[0] + vec[1], vec[1])).toBeCloseTo(singularValues[j], 12));
  });

  it("finds the leading values of a diagonal matrix, reports 0 past its rank and fixes signs", () => {
    const a = sparseFromRows([row({ 0: 3 }), row({ 1: -2 }), row({}), row({ 2: 1 })], 4);
    const { singularValues, rightVectors } = randomizedSvd(a, { components: 4, seed: 9, powerIterations: 1 });
    [3, 2, 1, 0].forEach((sigma, j) => expect(singularValues[j]).toBeCloseTo(sigma, 12));
    // Column j is ±e_j with its largest entry positive; the missing component is all zeros.
    const column = (j: number) => Array.from({ length: 4 }, (_, r) => rightVectors[r * 4 + j]);
    const expectColumn = (j: number, expected: number[]) =>
      column(j).forEach((x, r) => expect(x).toBeCloseTo(expected[r], 12));
    expectColumn(0, [1, 0, 0, 0]);
    expectColumn(1, [0, 1, 0, 0]);
    expectColumn(2, [0, 0, 1, 0]);
    expect(column(3).every((x) => x === 0)).toBe(true);
  });

  it("returns empty results when no component is asked for", () => {
    const a = sparseFromRows([row({ 0: 1 })], 1);
    const { singularValues, rightVectors } = randomizedSvd(a, { components: 0, seed: 1, powerIterations: 2 });
    expect(singularValues.length).toBe(0);
    expect(rightVectors.length).toBe(0);
  });
});
