import type { VocabularyLimits } from "./term-weights.js";

/**
 * The statistical embedder's term statistics computed from term bags (`src/text/term-bags.ts`)
 * rather than token lists, giving exactly what `term-weights.ts` gives for the same texts.
 */

/**
 * In how many of the given documents each term id of a bag vocabulary occurs.
 * @param documents Document numbers to count; every bag when omitted.
 */
export function bagDocumentFrequencies(
  bags: readonly Uint32Array[],
  termCount: number,
  documents?: Int32Array,
): Uint32Array {
  const df = new Uint32Array(termCount);
  const count = documents === undefined ? bags.length : documents.length;
  for (let d = 0; d < count; d++) {
    const bag = bags[documents === undefined ? d : documents[d]];
    for (let p = 0; p < bag.length; p += 2) df[bag[p]]++;
  }
  return df;
}

/** A vocabulary ranked from bag statistics, as `buildVocabulary` ranks it. */
export interface RankedVocabulary {
  /** Bag term id of each kept term, in model order. */
  ids: Int32Array;
  /** The kept terms, in model order. */
  terms: string[];
  /** Document frequency of each kept term. */
  documentFrequencies: number[];
}

/**
 * Keeps the terms `buildVocabulary` would keep (document frequency at least the minimum, at most
 * the maximum count) in the same canonical order: document frequency descending, then term in
 * code-unit order. The order depends only on the counts and the terms, never on bag ids.
 * @param df Document frequency per bag term id; 0 means the term is not counted.
 */
export function rankVocabulary(terms: readonly string[], df: Uint32Array, limits: VocabularyLimits): RankedVocabulary {
  const candidates: number[] = [];
  const minimum = Math.max(1, limits.minDocumentFrequency);
  for (let id = 0; id < df.length; id++) if (df[id] >= minimum) candidates.push(id);
  candidates.sort((x, y) => df[y] - df[x] || (terms[x] < terms[y] ? -1 : terms[x] > terms[y] ? 1 : 0));
  const ids = Int32Array.from(candidates.slice(0, limits.maxVocabulary));
  return { ids, terms: Array.from(ids, (id) => terms[id]), documentFrequencies: Array.from(ids, (id) => df[id]) };
}

/** Model index of every bag term id (`-1` for a term outside the vocabulary). */
export function modelIndexOfIds(ids: Int32Array, termCount: number): Int32Array {
  const modelIndexOf = new Int32Array(termCount).fill(-1);
  ids.forEach((id, index) => (modelIndexOf[id] = index));
  return modelIndexOf;
}

/**
 * Reusable scratch space for the L2-normalised log-TF × IDF vector of one text: each known term
 * weighs `(1 + ln tf) × idf`, indices ascending, exactly as `weighTerms` computes it (same
 * operations in the same order), without allocating per text. The result lives in
 * {@link TermWeigher.indices} and {@link TermWeigher.values} until the next call.
 */
export class TermWeigher {
  /** Model indices of the last text's known terms, ascending; valid up to the returned count. */
  readonly indices: Int32Array;
  /** Weight of each of those terms. */
  readonly values: Float64Array;
  readonly #idf: Float64Array;
  /** Term frequency by model index; all zero between calls. */
  readonly #counts: Uint32Array;

  constructor(idf: Float64Array) {
    this.#idf = idf;
    this.indices = new Int32Array(idf.length);
    this.values = new Float64Array(idf.length);
    this.#counts = new Uint32Array(idf.length);
  }

  /**
   * Weighs a bag (`[termId, count, ...]`); `modelIndexOf` maps its term ids to model indices and
   * must cover every id in it. @returns The number of known terms.
   */
  weighBag(bag: Uint32Array, modelIndexOf: Int32Array): number {
    let count = 0;
    for (let p = 0; p < bag.length; p += 2) {
      const index = modelIndexOf[bag[p]];
      if (index < 0) continue;
      this.indices[count++] = index;
      this.#counts[index] = bag[p + 1];
    }
    return this.#finish(count);
  }

  /** Weighs a token list; tokens outside `termIndex` are ignored. @returns The number of known terms. */
  weighTokens(tokens: readonly string[], termIndex: ReadonlyMap<string, number>): number {
    let count = 0;
    for (const token of tokens) {
      const index = termIndex.get(token);
      if (index === undefined) continue;
      if (this.#counts[index]++ === 0) this.indices[count++] = index;
    }
    return this.#finish(count);
  }

  #finish(count: number): number {
    const indices = this.indices;
    const values = this.values;
    indices.subarray(0, count).sort();
    let sum = 0;
    for (let i = 0; i < count; i++) {
      const index = indices[i];
      values[i] = (1 + Math.log(this.#counts[index])) * this.#idf[index];
      sum += values[i] * values[i];
      this.#counts[index] = 0;
    }
    const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
    for (let i = 0; i < count; i++) values[i] *= scale;
    return count;
  }
}
