import { describe, expect, it } from "vitest";
import { buildVocabulary, inverseDocumentFrequency, weighTerms } from "../../../src/l1/embeddings/term-weights.js";

const docs = [["b", "a", "a"], ["a", "c"], ["c", "a", "d"], ["b"]];

describe("buildVocabulary", () => {
  it("orders terms by document frequency, then alphabetically", () => {
    const { terms, documentFrequencies } = buildVocabulary(docs, { minDocumentFrequency: 1, maxVocabulary: 10 });
    expect(terms).toEqual(["a", "b", "c", "d"]);
    expect(documentFrequencies).toEqual([3, 2, 2, 1]);
  });

  it("drops rare terms and caps the vocabulary size", () => {
    expect(buildVocabulary(docs, { minDocumentFrequency: 2, maxVocabulary: 10 }).terms).toEqual(["a", "b", "c"]);
    expect(buildVocabulary(docs, { minDocumentFrequency: 1, maxVocabulary: 2 }).terms).toEqual(["a", "b"]);
  });
});

describe("weighTerms", () => {
  it("weighs (1 + ln tf) × idf, normalises to unit length and ignores unknown tokens", () => {
    const index = new Map([
      ["a", 0],
      ["b", 1],
    ]);
    const idf = Float64Array.from([1, 2]);
    const { indices, values } = weighTerms(["b", "zzz", "a", "a"], index, idf);
    expect(Array.from(indices)).toEqual([0, 1]);
    const raw = [1 + Math.log(2), 2];
    const length = Math.hypot(...raw);
    expect(values[0]).toBeCloseTo(raw[0] / length, 15);
    expect(values[1]).toBeCloseTo(raw[1] / length, 15);
  });

  it("returns an empty vector for text without known terms", () => {
    const { indices, values } = weighTerms(["zzz"], new Map([["a", 0]]), Float64Array.from([1]));
    expect(indices.length).toBe(0);
    expect(values.length).toBe(0);
  });

  it("keeps a positive IDF even for a term in every document", () => {
    expect(inverseDocumentFrequency(1, 1)).toBeCloseTo(Math.log(2), 15);
    expect(inverseDocumentFrequency(10, 10)).toBeGreaterThan(0);
  });
});
