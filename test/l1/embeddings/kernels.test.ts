import { describe, expect, it } from "vitest";
import { rankVocabulary, TermWeigher } from "../../../src/l1/embeddings/bag-weights.js";
import { axpy, axpyRows, mulberry32, multiply, randomMatrix } from "../../../src/l1/embeddings/linear-algebra.js";
import {
  multiplySparse,
  multiplySparseTransposed,
  sparseFromRows,
  transposeSparse,
} from "../../../src/l1/embeddings/sparse-matrix.js";
import { buildVocabulary, weighTerms } from "../../../src/l1/embeddings/term-weights.js";
import { termBagsOf } from "../../../src/text/term-bags.js";
import { tokenize } from "../../../src/text/tokenize.js";

/** `Object.is` on every element: bit-identical up to NaN payloads, and -0 differs from 0. */
function expectIdentical(a: Float64Array, b: Float64Array): void {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) expect({ i, value: a[i] }).toEqual({ i, value: b[i] });
}

describe("grouped product kernels", () => {
  const random = mulberry32(3);

  it("adds eight rows per pass bit-identically to one axpy per row", () => {
    const x = randomMatrix(40, 13, random);
    const alphas = Float64Array.from({ length: 19 }, () => random() * 1e3 - 500);
    const rows = Int32Array.from({ length: 19 }, () => Math.floor(random() * 40));
    const grouped = new Float64Array(13).fill(0.1);
    const plain = grouped.slice();
    axpyRows(alphas, rows, 2, 19, x, 13, grouped, 0, 13);
    for (let t = 2; t < 19; t++) axpy(alphas[t], x, rows[t] * 13, plain, 0, 13);
    expectIdentical(grouped, plain);
  });

  it("multiplies dense matrices bit-identically to the row-by-row definition, skipping zeros", () => {
    const a = randomMatrix(7, 21, random).map((v, i) => (i % 5 === 0 ? 0 : v));
    const b = randomMatrix(21, 9, random);
    const plain = new Float64Array(7 * 9);
    for (let i = 0; i < 7; i++)
      for (let k = 0; k < 21; k++) if (a[i * 21 + k] !== 0) axpy(a[i * 21 + k], b, k * 9, plain, i * 9, 9);
    expectIdentical(multiply(a, b, 7, 21, 9), plain);
  });

  it("multiplies by a sparse matrix and its transpose bit-identically to per-entry sums", () => {
    const rows = Array.from({ length: 6 }, (_, r) => {
      const indices = Int32Array.from({ length: 3 + 3 * r }, (_, i) => i * 2 + (r % 2));
      return { indices, values: Float64Array.from(indices, () => random() - 0.5) };
    });
    const a = sparseFromRows(rows, 40);
    const x = randomMatrix(40, 5, random);
    const y = randomMatrix(6, 5, random);
    const ax = new Float64Array(6 * 5);
    const aty = new Float64Array(40 * 5);
    rows.forEach((row, i) =>
      row.indices.forEach((col, e) => {
        axpy(row.values[e], x, col * 5, ax, i * 5, 5);
        axpy(row.values[e], y, i * 5, aty, col * 5, 5);
      }),
    );
    expectIdentical(multiplySparse(a, x, 5), ax);
    expectIdentical(multiplySparseTransposed(a, y, 5), aty);
    expectIdentical(multiplySparse(transposeSparse(a), y, 5), aty);
  });
});

describe("term statistics from bags", () => {
  const texts = ["b a a", "a c", "c a d", "b", "the refunds refunded"];

  it("ranks the vocabulary as buildVocabulary does", () => {
    const bags = termBagsOf(texts);
    const df = new Uint32Array(bags.terms.length);
    for (const bag of bags.bags) for (let p = 0; p < bag.length; p += 2) df[bag[p]]++;
    for (const limits of [
      { minDocumentFrequency: 1, maxVocabulary: 10 },
      { minDocumentFrequency: 2, maxVocabulary: 10 },
      { minDocumentFrequency: 1, maxVocabulary: 2 },
    ]) {
      const ranked = rankVocabulary(bags.terms, df, limits);
      const expected = buildVocabulary(
        texts.map((t) => tokenize(t)),
        limits,
      );
      expect({ terms: ranked.terms, documentFrequencies: ranked.documentFrequencies }).toEqual(expected);
    }
  });

  it("weighs tokens and bags exactly as weighTerms does, reusing its scratch space", () => {
    const bags = termBagsOf(texts);
    const termIndex = new Map([
      ["c", 0],
      ["a", 1],
      ["refund", 2],
    ]);
    const idf = Float64Array.from([1.5, 0.7, 2.2]);
    const modelIndexOf = Int32Array.from(bags.terms, (term) => termIndex.get(term) ?? -1);
    const weigher = new TermWeigher(idf);
    texts.forEach((text, i) => {
      const expected = weighTerms(tokenize(text), termIndex, idf);
      for (const count of [
        weigher.weighTokens(tokenize(text), termIndex),
        weigher.weighBag(bags.bags[i], modelIndexOf),
      ]) {
        expect(Array.from(weigher.indices.subarray(0, count))).toEqual(Array.from(expected.indices));
        expectIdentical(weigher.values.slice(0, count), expected.values);
      }
    });
  });
});
