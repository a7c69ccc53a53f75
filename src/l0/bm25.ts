/**
 * A pure BM25 scorer over pre-tokenized documents, backed by an inverted index
 * (term -> postings of document number and term frequency).
 */
import { LookupKnowledgeError } from "../errors.js";
import { resolveBm25Options, validateBm25Snapshot, type Bm25Options, type Bm25Snapshot } from "./bm25-options.js";

export { DEFAULT_BM25_OPTIONS, type Bm25Options, type Bm25Snapshot } from "./bm25-options.js";

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
 * stats.score(tokenize("refunds")); // Map { 0 => 0.69... }
 */
export class Bm25Stats {
  readonly #k1: number;
  readonly #b: number;
  readonly #terms: readonly string[];
  readonly #termIds: ReadonlyMap<string, number>;
  readonly #docLengths: Float64Array;
  /** Postings of term t are the index range `#offsets[t] .. #offsets[t + 1]`. */
  readonly #offsets: Uint32Array;
  /** Document numbers, ascending within each term's postings. */
  readonly #postingDocs: Uint32Array;
  readonly #postingTfs: Float64Array;
  readonly #idf: Float64Array;
  /** `k1 * (1 - b + b * dl / avgdl)` per document. */
  readonly #lengthNorm: Float64Array;
  /** Scratch accumulator for full scoring, reused between calls. */
  #accumulator: Float64Array | undefined;

  private constructor(
    terms: readonly string[],
    docs: readonly (readonly number[])[],
    docLengths: readonly number[],
    k1: number,
    b: number,
  ) {
    this.#k1 = k1;
    this.#b = b;
    this.#terms = terms;
    this.#termIds = new Map(terms.map((term, id) => [term, id]));
    const n = docs.length;
    const termCount = terms.length;

    const df = new Uint32Array(termCount);
    let postingCount = 0;
    for (const pairs of docs) {
      for (let i = 0; i < pairs.length; i += 2) df[pairs[i]]++;
      postingCount += pairs.length / 2;
    }
    this.#offsets = new Uint32Array(termCount + 1);
    for (let t = 0; t < termCount; t++) this.#offsets[t + 1] = this.#offsets[t] + df[t];
    this.#postingDocs = new Uint32Array(postingCount);
    this.#postingTfs = new Float64Array(postingCount);
    const cursor = this.#offsets.slice(0, termCount);
    for (let d = 0; d < n; d++) {
      const pairs = docs[d];
      for (let i = 0; i < pairs.length; i += 2) {
        const at = cursor[pairs[i]]++;
        this.#postingDocs[at] = d;
        this.#postingTfs[at] = pairs[i + 1];
      }
    }

    this.#idf = new Float64Array(termCount);
    for (let t = 0; t < termCount; t++) this.#idf[t] = Math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5));

    this.#docLengths = Float64Array.from(docLengths);
    let totalLength = 0;
    for (const length of docLengths) totalLength += length;
    const avgdl = n === 0 ? 0 : totalLength / n;
    this.#lengthNorm = new Float64Array(n);
    for (let d = 0; d < n; d++) {
      // With no tokens anywhere there are no postings to score; any finite norm will do.
      const relativeLength = avgdl > 0 ? this.#docLengths[d] / avgdl : 1;
      this.#lengthNorm[d] = k1 * (1 - b + b * relativeLength);
    }
  }

  /**
   * Builds the statistics from token arrays; the array index is the document number.
   * @throws LookupKnowledgeError `INVALID_OPTION` when `k1` or `b` is out of range.
   */
  static fromDocuments(docs: readonly (readonly string[])[], options: Bm25Options = {}): Bm25Stats {
    const { k1, b } = resolveBm25Options(options);
    const termIds = new Map<string, number>();
    const terms: string[] = [];
    const perDoc: number[][] = [];
    const docLengths: number[] = [];
    for (const tokens of docs) {
      const tf = new Map<number, number>();
      for (const token of tokens) {
        let id = termIds.get(token);
        if (id === undefined) {
          id = terms.length;
          termIds.set(token, id);
          terms.push(token);
        }
        tf.set(id, (tf.get(id) ?? 0) + 1);
      }
      const pairs: number[] = [];
      for (const [id, count] of tf) pairs.push(id, count);
      perDoc.push(pairs);
      docLengths.push(tokens.length);
    }
    return new Bm25Stats(terms, perDoc, docLengths, k1, b);
  }

  /**
   * Restores statistics saved with {@link Bm25Stats.toJSON}.
   * @throws LookupKnowledgeError `INDEX_CORRUPT` when the snapshot is malformed or its parameters are out of range.
   */
  static fromJSON(snapshot: Bm25Snapshot): Bm25Stats {
    const { k1, b } = validateBm25Snapshot(snapshot);
    const { terms, docs, docLengths } = snapshot;
    return new Bm25Stats([...terms], docs, docLengths, k1, b);
  }

  /** Number of documents. */
  get size(): number {
    return this.#docLengths.length;
  }

  /**
   * BM25 scores for `queryTerms` (already tokenized like the documents).
   *
   * Without `docIds`, returns every document that contains at least one query
   * term. With `docIds`, scores exactly those documents: each one appears in
   * the result, with 0 when it contains no query term. Terms absent from the
   * corpus contribute nothing. The map's order is unspecified.
   *
   * @throws LookupKnowledgeError `INVALID_INPUT` when a doc id is not an integer in `0 .. size - 1`.
   */
  score(queryTerms: readonly string[], docIds?: Iterable<number>): Map<number, number> {
    const query = this.#queryWeights(queryTerms);
    return docIds === undefined ? this.#scoreAll(query) : this.#scoreSome(query, docIds);
  }

  /** Inverse document frequency of a term; a term no document contains gets the largest possible value. */
  idf(term: string): number {
    const id = this.#termIds.get(term);
    return id === undefined ? Math.log(1 + (this.size + 0.5) / 0.5) : this.#idf[id];
  }

  /** The documents that contain `term`, ascending (a view: do not modify). */
  documentsWith(term: string): Uint32Array {
    const id = this.#termIds.get(term);
    return id === undefined ? new Uint32Array(0) : this.#postingDocs.subarray(this.#offsets[id], this.#offsets[id + 1]);
  }

  /** True when document `docId` contains `term`. */
  contains(docId: number, term: string): boolean {
    const id = this.#termIds.get(term);
    return id !== undefined && this.#findPosting(this.#offsets[id], this.#offsets[id + 1], docId) >= 0;
  }

  /** The snapshot to persist; restore it with {@link Bm25Stats.fromJSON}. */
  toJSON(): Bm25Snapshot {
    const docs: number[][] = Array.from({ length: this.size }, () => []);
    for (let t = 0; t < this.#terms.length; t++) {
      for (let at = this.#offsets[t]; at < this.#offsets[t + 1]; at++) docs[this.#postingDocs[at]].push(t, this.#postingTfs[at]);
    }
    return {
      version: 1,
      k1: this.#k1,
      b: this.#b,
      terms: [...this.#terms],
      docs,
      docLengths: Array.from(this.#docLengths),
    };
  }

  /** Known query terms with their weight `qtf * idf * (k1 + 1)`. */
  #queryWeights(queryTerms: readonly string[]): Map<number, number> {
    const weights = new Map<number, number>();
    for (const term of queryTerms) {
      const id = this.#termIds.get(term);
      if (id === undefined) continue;
      weights.set(id, (weights.get(id) ?? 0) + this.#idf[id] * (this.#k1 + 1));
    }
    return weights;
  }

  #scoreAll(query: ReadonlyMap<number, number>): Map<number, number> {
    const result = new Map<number, number>();
    if (query.size === 0) return result;
    const acc = (this.#accumulator ??= new Float64Array(this.size));
    const touched: number[] = [];
    for (const [t, weight] of query) {
      for (let at = this.#offsets[t]; at < this.#offsets[t + 1]; at++) {
        const d = this.#postingDocs[at];
        const tf = this.#postingTfs[at];
        // Every contribution is > 0 (idf > 0, tf > 0), so a zero accumulator means "not seen yet".
        if (acc[d] === 0) touched.push(d);
        acc[d] += (weight * tf) / (tf + this.#lengthNorm[d]);
      }
    }
    for (const d of touched) {
      result.set(d, acc[d]);
      acc[d] = 0;
    }
    return result;
  }

  #scoreSome(query: ReadonlyMap<number, number>, docIds: Iterable<number>): Map<number, number> {
    const result = new Map<number, number>();
    for (const d of docIds) {
      if (!Number.isInteger(d) || d < 0 || d >= this.size) {
        throw new LookupKnowledgeError("INVALID_INPUT", `BM25 doc id ${String(d)} is out of range (0 .. ${this.size - 1}).`);
      }
      result.set(d, 0);
    }
    if (result.size === 0 || query.size === 0) return result;
    const wanted = [...result.keys()];
    for (const [t, weight] of query) {
      const start = this.#offsets[t];
      const end = this.#offsets[t + 1];
      // Binary-search each wanted doc when that is cheaper than walking the whole postings list.
      if (wanted.length * Math.log2(end - start + 1) < end - start) {
        for (const d of wanted) {
          const at = this.#findPosting(start, end, d);
          if (at >= 0) result.set(d, (result.get(d) ?? 0) + this.#termScore(weight, at, d));
        }
      } else {
        for (let at = start; at < end; at++) {
          const d = this.#postingDocs[at];
          const current = result.get(d);
          if (current !== undefined) result.set(d, current + this.#termScore(weight, at, d));
        }
      }
    }
    return result;
  }

  #termScore(weight: number, at: number, d: number): number {
    const tf = this.#postingTfs[at];
    return (weight * tf) / (tf + this.#lengthNorm[d]);
  }

  /** Index of doc `d` in the postings range `start .. end`, or -1. */
  #findPosting(start: number, end: number, d: number): number {
    let lo = start;
    let hi = end - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const value = this.#postingDocs[mid];
      if (value === d) return mid;
      if (value < d) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}
