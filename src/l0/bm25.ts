/**
 * BM25 over an inverted index (term -> postings of document number and term frequency), with
 * exhaustive scoring (`score`) and pruned top-k retrieval (`topK`) that return the same ranking.
 */
import { LookupKnowledgeError } from "../errors.js";
import { bagOfTokens, type TermBags } from "../text/term-bags.js";
import { PostingBlocks } from "./bm25-blocks.js";
import { decodeBm25, encodeBm25, type Bm25File, type Bm25Postings } from "./bm25-codec.js";
import { resolveBm25Options, type Bm25Options } from "./bm25-options.js";
import { applyPostingsChange, postingsFromBags, type PostingsChange } from "./bm25-postings.js";
import { bm25TopK, bm25TopKAmong, postingsLength, type ScoredDoc, type WeightedTerm } from "./bm25-top-k.js";

/** Postings entries one galloping search of an admitted document is counted as, when choosing the plan of {@link Bm25Stats.topKAmong}. */
const EXACT_SCAN_STEPS = 8;

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
 * Statistics restored with {@link Bm25Stats.decode} read a term's postings from the file the first
 * time an operation needs them (see `bm25-blocks.ts`); statistics built from documents hold all.
 *
 * @example
 * const stats = Bm25Stats.fromDocuments([tokenize("refund policy"), tokenize("access requests")]);
 * stats.topK(tokenize("refunds"), 10); // [{ id: 0, score: 0.69... }]
 */
export class Bm25Stats {
  readonly #postings: Bm25Postings;
  /** The blocks of a decoded file, while some are not decoded yet; then null. */
  #blocks: PostingBlocks | null;
  /** The decoded file, when re-encoding gives exactly its bytes: what {@link Bm25Stats.encode} returns. */
  readonly #source: Uint8Array | null;
  readonly #termIds: ReadonlyMap<string, number>;
  readonly #k1: number;
  readonly #b: number;
  readonly #avgdl: number;
  /** `k1 * (1 - b + b * dl / avgdl)` per document. */
  readonly #lengthNorm: Float64Array;
  /** Per term, the largest `tf / (tf + lengthNorm)` of its postings: the bound pruning needs. */
  readonly #maxImpact: Float64Array;
  /** Scratch accumulator for exhaustive scoring, reused between calls. */
  #accumulator: Float64Array | undefined;

  /** From complete postings, or from a decoded file whose blocks are read on first use. */
  private constructor(postings: Bm25Postings, file?: Bm25File) {
    const { terms, docLengths, k1, b } = postings;
    this.#postings = postings;
    this.#blocks = file === undefined ? null : new PostingBlocks(file);
    this.#source = file?.canonical === true ? file.bytes : null;
    this.#k1 = k1;
    this.#b = b;
    const termIds = new Map<string, number>();
    // A loop, not `new Map(terms.map(...))`: three times faster, a good part of a load.
    for (let id = 0; id < terms.length; id++) termIds.set(terms[id], id);
    this.#termIds = termIds;
    if (termIds.size !== terms.length)
      throw new LookupKnowledgeError("INDEX_CORRUPT", "BM25 postings list a term twice");
    const n = docLengths.length;
    let totalLength = 0;
    for (let d = 0; d < n; d++) totalLength += docLengths[d];
    const avgdl = n === 0 ? 0 : totalLength / n;
    this.#avgdl = avgdl;
    this.#lengthNorm = new Float64Array(n);
    for (let d = 0; d < n; d++) {
      // With no tokens anywhere there are no postings to score; any finite norm will do.
      const relativeLength = avgdl > 0 ? docLengths[d] / avgdl : 1;
      this.#lengthNorm[d] = k1 * (1 - b + b * relativeLength);
    }
    this.#maxImpact = new Float64Array(terms.length);
    if (this.#blocks === null) for (let t = 0; t < terms.length; t++) this.#maxImpact[t] = this.#impactBound(t);
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

  /**
   * Restores statistics saved with {@link Bm25Stats.encode}, reading everything but the postings
   * (`bytes` are kept, not copied: do not modify them afterwards). A term's postings are decoded
   * and checked the first time an operation needs them, so a crafted file with a bad posting
   * block loads, and the first operation touching that term throws `INDEX_CORRUPT` naming it; a
   * saved index's files pass a SHA-256 check against its manifest before they are decoded, so a
   * damaged file never gets that far.
   * @throws LookupKnowledgeError `INDEX_CORRUPT` naming what is malformed.
   */
  static decode(bytes: Uint8Array): Bm25Stats {
    const file = decodeBm25(bytes);
    return new Bm25Stats(file.postings, file);
  }

  /**
   * The binary form to persist (varint-coded postings). For decoded statistics, a copy of the
   * bytes they were decoded from, which is what re-encoding gives; blocks never used are copied
   * unread (a saved index's files pass its manifest's SHA-256 check before they are decoded).
   */
  encode(): Uint8Array {
    if (this.#source !== null) return this.#source.slice();
    this.#decodeAll();
    return encodeBm25(this.#postings);
  }

  /** The statistics after documents were removed, renumbered and added: equal in every score to building them anew. */
  withChanges(change: PostingsChange): Bm25Stats {
    this.#decodeAll();
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
   * {@link Bm25Stats.topK} among the documents `ids` (ascending) only, with the plan their number
   * calls for: an exact scoring of each admitted document when they are few next to the query's
   * postings, pruned retrieval with the set as its filter otherwise. Same result either way.
   */
  topKAmong(queryTerms: readonly string[], k: number, ids: ArrayLike<number>, admitted: Uint8Array): ScoredDoc[] {
    const query: WeightedTerm[] = [...this.#queryWeights(queryTerms)].map(([term, weight]) => ({ term, weight }));
    const { offsets, docs, tfs } = this.#postings;
    const view = { offsets, docs, tfs, lengthNorm: this.#lengthNorm, maxImpact: this.#maxImpact };
    // A galloping search per admitted document and term costs a few steps; walking a posting costs one per entry.
    if (ids.length * query.length * EXACT_SCAN_STEPS < postingsLength(view, query))
      return bm25TopKAmong(view, query, ids, k);
    return bm25TopK(view, query, k, (doc) => admitted[doc] === 1);
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
        if (!Number.isInteger(d) || d < 0 || d >= this.size)
          throw new LookupKnowledgeError(
            "INVALID_INPUT",
            `BM25 doc id ${String(d)} is out of range (0 .. ${this.size - 1}).`,
          );
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
   * The BM25 score `queryTerms` would give a document made of `docTerms`, by this corpus's
   * statistics (IDF, average length): how a chunk would rank with part of its text held out,
   * which index-time calibration asks of every pseudo-query's own chunk.
   */
  scoreTerms(queryTerms: readonly string[], docTerms: readonly string[]): number {
    const tf = new Map<string, number>();
    for (const term of docTerms) tf.set(term, (tf.get(term) ?? 0) + 1);
    const lengthNorm = this.#k1 * (1 - this.#b + this.#b * (this.#avgdl > 0 ? docTerms.length / this.#avgdl : 1));
    let score = 0;
    for (const [id, weight] of this.#queryWeights(queryTerms)) {
      const f = tf.get(this.#postings.terms[id]) ?? 0;
      if (f > 0) score += (weight * f) / (f + lengthNorm);
    }
    return score;
  }

  /**
   * Per term, its number of occurrences in the whole corpus, as one bag (`[termId, count, ...]`),
   * terms that no document holds any more left out.
   */
  collectionFrequencies(): Uint32Array {
    this.#decodeAll();
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
    return id === undefined ? Math.log(1 + (this.size + 0.5) / 0.5) : this.#idfOf(id);
  }

  /** The documents that contain `term`, ascending (a view: do not modify). */
  documentsWith(term: string): Uint32Array {
    const id = this.#termIds.get(term);
    if (id === undefined) return new Uint32Array(0);
    this.#decode(id);
    const { offsets, docs } = this.#postings;
    return docs.subarray(offsets[id], offsets[id + 1]);
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

  /** Known query terms with their weight `qtf * idf * (k1 + 1)`, in order of first appearance, their postings decoded. */
  #queryWeights(queryTerms: readonly string[]): Map<number, number> {
    const weights = new Map<number, number>();
    for (const term of queryTerms) {
      const id = this.#termIds.get(term);
      if (id === undefined) continue;
      this.#decode(id);
      weights.set(id, (weights.get(id) ?? 0) + this.#idfOf(id) * (this.#k1 + 1));
    }
    return weights;
  }

  /** Inverse document frequency of term t, from its document count: computed when asked, which a load does not pay for every term. */
  #idfOf(t: number): number {
    const df = this.#postings.offsets[t + 1] - this.#postings.offsets[t];
    return Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
  }

  /** Makes term t's postings and bound ready: once decoded, one flag check (or none, once all are). */
  #decode(t: number): void {
    const blocks = this.#blocks;
    if (blocks === null || !blocks.ensure(t)) return;
    this.#maxImpact[t] = this.#impactBound(t);
    if (blocks.complete) this.#blocks = null;
  }

  /** Makes every term ready, for the operations that read all postings. */
  #decodeAll(): void {
    for (let t = 0; this.#blocks !== null && t < this.#postings.terms.length; t++) this.#decode(t);
  }

  /** The largest `tf / (tf + lengthNorm)` of term t's postings. */
  #impactBound(t: number): number {
    const { offsets, docs, tfs } = this.#postings;
    let max = 0;
    for (let at = offsets[t]; at < offsets[t + 1]; at++) {
      const tf = tfs[at];
      const impact = tf / (tf + this.#lengthNorm[docs[at]]);
      if (impact > max) max = impact;
    }
    return max;
  }
}
