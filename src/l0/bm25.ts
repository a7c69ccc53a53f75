/**
 * BM25 over an inverted index (term -> postings of document number and term frequency), with
 * exhaustive scoring (`score`) and pruned top-k retrieval (`topK`) that return the same ranking.
 */
import { LookupKnowledgeError } from "../errors.js";
import { bagOfTokens, type TermBags } from "../text/term-bags.js";
import { decodeBm25, encodeBm25, type Bm25Postings } from "./bm25-codec.js";
import { resolveBm25Options, type Bm25Options } from "./bm25-options.js";
import { applyPostingsChange, postingsFromBags, type PostingsChange } from "./bm25-postings.js";
import { bm25TopK, type ScoredDoc, type WeightedTerm } from "./bm25-top-k.js";

export { DEFAULT_BM25_OPTIONS, type Bm25Options } from "./bm25-options.js";
export type { PostingsChange } from "./bm25-postings.js";
export type { ScoredDoc } from "./bm25-top-k.js";

/**
 * Corpus statistics and inverted index for BM25 scoring.
 *
 * A document's score for a query is
 * `sum over query terms t of qtf(t) * idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))`
 * with the Lucene idf `ln(1 + (N - df + 0.5) / (df + 0.5))`, which is never
 * negative. Unlike Lucene, document lengths are exact (not quantised), and the
 * `(k1 + 1)` factor is kept, so a single occurrence in a document of average
 * length scores exactly `idf`. A term repeated in the query counts once per
 * occurrence (`qtf`), as in standard BM25.
 *
 * @example
 * const stats = Bm25Stats.fromDocuments([tokenize("refund policy"), tokenize("access requests")]);
 * stats.topK(tokenize("refunds"), 10); // [{ id: 0, score: 0.69... }]
 */
export class Bm25Stats {
  readonly #postings: Bm25Postings;
  readonly #termIds: ReadonlyMap<string, number>;
  readonly #k1: number;
  readonly #idf: Float64Array;
  /** `k1 * (1 - b + b * dl / avgdl)` per document. */
  readonly #lengthNorm: Float64Array;
  /** Per term, the largest `tf / (tf + lengthNorm)` of its postings: the bound pruning needs. */
  readonly #maxImpact: Float64Array;
  /** Scratch accumulator for exhaustive scoring, reused between calls. */
  #accumulator: Float64Array | undefined;

  private constructor(postings: Bm25Postings) {
    const { terms, offsets, docs, tfs, docLengths, k1, b } = postings;
    this.#postings = postings;
    this.#k1 = k1;
    this.#termIds = new Map(terms.map((term, id) => [term, id]));
    if (this.#termIds.size !== terms.length) throw new LookupKnowledgeError("INDEX_CORRUPT", "BM25 postings list a term twice");
    const n = docLengths.length;
    this.#idf = new Float64Array(terms.length);
    for (let t = 0; t < terms.length; t++) {
      const df = offsets[t + 1] - offsets[t];
      this.#idf[t] = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    }
    let totalLength = 0;
    for (let d = 0; d < n; d++) totalLength += docLengths[d];
    const avgdl = n === 0 ? 0 : totalLength / n;
    this.#lengthNorm = new Float64Array(n);
    for (let d = 0; d < n; d++) {
      // With no tokens anywhere there are no postings to score; any finite norm will do.
      const relativeLength = avgdl > 0 ? docLengths[d] / avgdl : 1;
      this.#lengthNorm[d] = k1 * (1 - b + b * relativeLength);
    }
    this.#maxImpact = new Float64Array(terms.length);
    for (let t = 0; t < terms.length; t++) {
      let max = 0;
      for (let at = offsets[t]; at < offsets[t + 1]; at++) {
        const tf = tfs[at];
        const impact = tf / (tf + this.#lengthNorm[docs[at]]);
        if (impact > max) max = impact;
      }
      this.#maxImpact[t] = max;
    }
  }

  /** Builds the statistics from term bags; bag `i` is document `i`. @throws LookupKnowledgeError `INVALID_OPTION` when `k1` or `b` is out of range. */
  static fromBags(bags: Pick<TermBags, "terms" | "bags">, options: Bm25Options = {}): Bm25Stats {
    return new Bm25Stats(postingsFromBags(bags.terms, bags.bags, resolveBm25Options(options)));
  }

  /** Builds the statistics from token arrays; the array index is the document number. */
  static fromDocuments(docs: readonly (readonly string[])[], options: Bm25Options = {}): Bm25Stats {
    const vocabulary = { terms: [] as string[], termIds: new Map<string, number>() };
    const bags = docs.map((tokens) => bagOfTokens(tokens, vocabulary));
    return Bm25Stats.fromBags({ terms: vocabulary.terms, bags }, options);
  }

  /** Restores statistics saved with {@link Bm25Stats.encode}. @throws LookupKnowledgeError `INDEX_CORRUPT` naming what is malformed. */
  static decode(bytes: Uint8Array): Bm25Stats {
    return new Bm25Stats(decodeBm25(bytes));
  }

  /** The binary form to persist (varint-coded postings). */
  encode(): Uint8Array {
    return encodeBm25(this.#postings);
  }

  /** The statistics after documents were removed, renumbered and added: equal in every score to building them anew. */
  withChanges(change: PostingsChange): Bm25Stats {
    return new Bm25Stats(applyPostingsChange(this.#postings, change));
  }

  /** Number of documents. */
  get size(): number {
    return this.#postings.docLengths.length;
  }

  /** The vocabulary: a term's position is its id in term bags given to {@link Bm25Stats.withChanges}. */
  get terms(): readonly string[] {
    return this.#postings.terms;
  }

  /**
   * The `k` best documents for `queryTerms` (tokenized like the documents), best first, ties by
   * smaller document number, with exact scores; only documents `accept` admits when given.
   * Equal to sorting the exhaustive {@link Bm25Stats.score} and keeping `k`; far cheaper.
   */
  topK(queryTerms: readonly string[], k: number, accept?: (doc: number) => boolean): ScoredDoc[] {
    const query: WeightedTerm[] = [...this.#queryWeights(queryTerms)].map(([term, weight]) => ({ term, weight }));
    const { offsets, docs, tfs } = this.#postings;
    return bm25TopK({ offsets, docs, tfs, lengthNorm: this.#lengthNorm, maxImpact: this.#maxImpact }, query, k, accept);
  }

  /**
   * Exhaustive BM25 scores for `queryTerms`. Without `docIds`, returns every document that
   * contains at least one query term. With `docIds`, scores exactly those documents: each one
   * appears in the result, with 0 when it contains no query term. The map's order is unspecified.
   * @throws LookupKnowledgeError `INVALID_INPUT` when a doc id is not an integer in `0 .. size - 1`.
   */
  score(queryTerms: readonly string[], docIds?: Iterable<number>): Map<number, number> {
    const query = this.#queryWeights(queryTerms);
    const { offsets, docs, tfs } = this.#postings;
    const result = new Map<number, number>();
    if (docIds !== undefined) {
      for (const d of docIds) {
        if (!Number.isInteger(d) || d < 0 || d >= this.size) throw new LookupKnowledgeError("INVALID_INPUT", `BM25 doc id ${String(d)} is out of range (0 .. ${this.size - 1}).`);
        result.set(d, 0);
      }
    }
    const acc = (this.#accumulator ??= new Float64Array(this.size));
    const touched: number[] = [];
    for (const [t, weight] of query) {
      for (let at = offsets[t]; at < offsets[t + 1]; at++) {
        const d = docs[at];
        const tf = tfs[at];
        // Every contribution is > 0 (idf > 0, tf > 0), so a zero accumulator means "not seen yet".
        if (acc[d] === 0) touched.push(d);
        acc[d] += (weight * tf) / (tf + this.#lengthNorm[d]);
      }
    }
    for (const d of touched) {
      if (docIds === undefined || result.has(d)) result.set(d, acc[d]);
      acc[d] = 0;
    }
    return result;
  }

  /**
   * Per term, its number of occurrences in the whole corpus, as one bag (`[termId, count, ...]`),
   * terms that no document holds any more left out.
   */
  collectionFrequencies(): Uint32Array {
    const { offsets, tfs, terms } = this.#postings;
    const pairs: number[] = [];
    for (let t = 0; t < terms.length; t++) {
      let count = 0;
      for (let at = offsets[t]; at < offsets[t + 1]; at++) count += tfs[at];
      if (count > 0) pairs.push(t, Math.min(count, 0xffffffff));
    }
    return Uint32Array.from(pairs);
  }

  /** Inverse document frequency of a term; a term no document contains gets the largest possible value. */
  idf(term: string): number {
    const id = this.#termIds.get(term);
    return id === undefined ? Math.log(1 + (this.size + 0.5) / 0.5) : this.#idf[id];
  }

  /** The documents that contain `term`, ascending (a view: do not modify). */
  documentsWith(term: string): Uint32Array {
    const id = this.#termIds.get(term);
    const { offsets, docs } = this.#postings;
    return id === undefined ? new Uint32Array(0) : docs.subarray(offsets[id], offsets[id + 1]);
  }

  /** True when document `docId` contains `term`. */
  contains(docId: number, term: string): boolean {
    const postings = this.documentsWith(term);
    let lo = 0;
    let hi = postings.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (postings[mid] === docId) return true;
      if (postings[mid] < docId) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /** Known query terms with their weight `qtf * idf * (k1 + 1)`, in order of first appearance. */
  #queryWeights(queryTerms: readonly string[]): Map<number, number> {
    const weights = new Map<number, number>();
    for (const term of queryTerms) {
      const id = this.#termIds.get(term);
      if (id === undefined) continue;
      weights.set(id, (weights.get(id) ?? 0) + this.#idf[id] * (this.#k1 + 1));
    }
    return weights;
  }
}
