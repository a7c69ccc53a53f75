import type { SparseVector } from "./sparse-matrix.js";

/** Limits applied by {@link buildVocabulary}. */
export interface VocabularyLimits {
  /** Terms seen in fewer documents are dropped. */
  minDocumentFrequency: number;
  /** At most this many terms are kept: highest document frequency first, ties by term. */
  maxVocabulary: number;
}

/** A vocabulary in its canonical order: document frequency descending, then term (code-unit order). */
export interface VocabularyCounts {
  /** The kept terms. */
  terms: string[];
  /** Number of documents containing each term. */
  documentFrequencies: number[];
}

/**
 * Counts in how many documents each term occurs and keeps the terms that pass the limits,
 * in an order that depends only on the counts and the terms themselves.
 */
export function buildVocabulary(documents: readonly (readonly string[])[], limits: VocabularyLimits): VocabularyCounts {
  const frequency = new Map<string, number>();
  for (const tokens of documents) {
    for (const term of new Set(tokens)) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  }
  const kept = [...frequency]
    .filter(([, df]) => df >= limits.minDocumentFrequency)
    .sort(([ta, da], [tb, db]) => db - da || (ta < tb ? -1 : ta > tb ? 1 : 0))
    .slice(0, limits.maxVocabulary);
  return { terms: kept.map(([term]) => term), documentFrequencies: kept.map(([, df]) => df) };
}

/**
 * Smoothed inverse document frequency, `ln(1 + N / df)`: always positive, so even a
 * one-document corpus keeps non-zero weights.
 */
export function inverseDocumentFrequency(documentFrequency: number, documentCount: number): number {
  return Math.log(1 + documentCount / documentFrequency);
}

/**
 * The L2-normalised log-TF × IDF vector of a token list: each known term weighs
 * `(1 + ln tf) × idf`; unknown tokens are ignored. Indices come out sorted so that
 * every later sum runs in the same order. A text with no known terms yields an empty vector.
 */
export function weighTerms(
  tokens: readonly string[],
  termIndex: ReadonlyMap<string, number>,
  idf: Float64Array,
): SparseVector {
  const counts = new Map<number, number>();
  for (const token of tokens) {
    const index = termIndex.get(token);
    if (index !== undefined) counts.set(index, (counts.get(index) ?? 0) + 1);
  }
  const indices = Int32Array.from(counts.keys()).sort();
  const values = new Float64Array(indices.length);
  let sum = 0;
  indices.forEach((index, i) => {
    values[i] = (1 + Math.log(counts.get(index) ?? 1)) * idf[index];
    sum += values[i] * values[i];
  });
  const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  for (let i = 0; i < values.length; i++) values[i] *= scale;
  return { indices, values };
}
