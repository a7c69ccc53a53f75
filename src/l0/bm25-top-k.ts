/**
 * BM25 top-k by dynamic pruning (MaxScore, as Lucene and PISA run it): the query's terms are
 * ordered by the largest score each can add; once `k` documents are held, the terms whose bounds
 * together cannot lift a document above the k-th score are "non-essential": documents only they
 * contain are never visited, and the others look them up only while the document can still win.
 * The cost follows the postings of the query's rare terms, not the size of the corpus.
 */

/** The postings of one index, as {@link bm25TopK} reads them. */
export interface PostingsView {
  /** Postings of term t are the range `offsets[t] .. offsets[t + 1]`. */
  offsets: Uint32Array;
  /** Document numbers, ascending within each term. */
  docs: Uint32Array;
  tfs: Uint32Array;
  /** `k1 * (1 - b + b * dl / avgdl)` per document. */
  lengthNorm: Float64Array;
  /** Per term, the largest `tf / (tf + lengthNorm)` over its postings. */
  maxImpact: Float64Array;
}

/** One query term: its id and weight `qtf * idf * (k1 + 1)`, in query order. */
export interface WeightedTerm {
  term: number;
  weight: number;
}

/** A scored document. */
export interface ScoredDoc {
  id: number;
  score: number;
}

/**
 * A bound must clear the k-th score by this relative margin before a document is skipped, so
 * that rounding in a sum of bounds can never drop a document that belongs in the top k.
 */
const BOUND_SLACK = 1e-12;

interface Cursor {
  /** Position in the query's term order (its place in the exact sum). */
  slot: number;
  weight: number;
  at: number;
  end: number;
  bound: number;
}

/** Kept documents: a min-heap on (score, then larger id first), so the root is the one to drop. */
class TopK {
  readonly items: ScoredDoc[] = [];
  constructor(readonly k: number) {}

  /** Score to beat once full; documents arrive in ascending id, so a tie never wins. */
  get threshold(): number {
    return this.items.length < this.k ? 0 : this.items[0].score;
  }

  offer(id: number, score: number): void {
    const items = this.items;
    if (items.length < this.k) {
      items.push({ id, score });
      this.#up(items.length - 1);
    } else if (score > items[0].score) {
      items[0] = { id, score };
      this.#down(0);
    }
  }

  #worse(a: ScoredDoc, b: ScoredDoc): boolean {
    return a.score < b.score || (a.score === b.score && a.id > b.id);
  }

  #up(i: number): void {
    const items = this.items;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#worse(items[i], items[parent])) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }

  #down(i: number): void {
    const items = this.items;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < items.length && this.#worse(items[left], items[worst])) worst = left;
      if (right < items.length && this.#worse(items[right], items[worst])) worst = right;
      if (worst === i) return;
      [items[i], items[worst]] = [items[worst], items[i]];
      i = worst;
    }
  }
}

/** First position in `docs[from .. end)` holding a document >= `target` (galloping, then binary search). */
function seek(docs: Uint32Array, from: number, end: number, target: number): number {
  if (from >= end || docs[from] >= target) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < end && docs[hi] < target) {
    lo = hi;
    step *= 2;
    hi = lo + step;
  }
  if (hi > end) hi = end;
  // docs[lo] < target; the answer lies in (lo, hi].
  while (lo + 1 < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid] < target) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * The `k` best documents for a query, best first (ties by smaller id), each with its exact
 * score: the same sum, in the same order, as scoring every document (`Bm25Stats.score`), so the
 * result equals sorting that exhaustive list and keeping the first `k`. Documents scoring 0
 * (no query term) are never returned. `accept`, when given, admits only the documents it
 * returns true for (a domain filter), tested before a document is scored.
 */
export function bm25TopK(
  view: PostingsView,
  query: readonly WeightedTerm[],
  k: number,
  accept?: (doc: number) => boolean,
): ScoredDoc[] {
  if (k < 1 || query.length === 0) return [];
  const { offsets, docs, tfs, lengthNorm, maxImpact } = view;
  const cursors: Cursor[] = query
    .map(({ term, weight }, slot) => ({
      slot,
      weight,
      at: offsets[term],
      end: offsets[term + 1],
      bound: weight * maxImpact[term],
    }))
    .filter((cursor) => cursor.at < cursor.end)
    .sort((a, b) => a.bound - b.bound || a.slot - b.slot);
  const n = cursors.length;
  // prefix[i]: the most the cursors 0 .. i - 1 can add together.
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i] + cursors[i].bound;
  const contributions = new Float64Array(query.length);
  const top = new TopK(k);
  let essential = 0;

  for (;;) {
    const threshold = top.threshold;
    while (essential < n && prefix[essential + 1] * (1 + BOUND_SLACK) <= threshold) essential++;
    if (essential === n) break;
    let doc = Infinity;
    for (let i = essential; i < n; i++) {
      const cursor = cursors[i];
      if (cursor.at < cursor.end && docs[cursor.at] < doc) doc = docs[cursor.at];
    }
    if (doc === Infinity) break;

    contributions.fill(0);
    let partial = 0;
    for (let i = essential; i < n; i++) {
      const cursor = cursors[i];
      if (cursor.at < cursor.end && docs[cursor.at] === doc) {
        const tf = tfs[cursor.at];
        const value = (cursor.weight * tf) / (tf + lengthNorm[doc]);
        contributions[cursor.slot] = value;
        partial += value;
        cursor.at++;
      }
    }
    if (accept !== undefined && !accept(doc)) continue;
    let alive = true;
    for (let i = essential - 1; i >= 0; i--) {
      if ((partial + prefix[i + 1]) * (1 + BOUND_SLACK) <= threshold) {
        alive = false;
        break;
      }
      const cursor = cursors[i];
      cursor.at = seek(docs, cursor.at, cursor.end, doc);
      if (cursor.at < cursor.end && docs[cursor.at] === doc) {
        const tf = tfs[cursor.at];
        const value = (cursor.weight * tf) / (tf + lengthNorm[doc]);
        contributions[cursor.slot] = value;
        partial += value;
      }
    }
    if (!alive) continue;
    // The exact score adds the terms in query order, as exhaustive scoring does.
    let score = 0;
    for (let slot = 0; slot < contributions.length; slot++) score += contributions[slot];
    top.offer(doc, score);
  }
  return top.items.sort((a, b) => b.score - a.score || a.id - b.id);
}

/** The sum of the postings lengths of the query's terms: what walking them costs. */
export function postingsLength(view: Pick<PostingsView, "offsets">, query: readonly WeightedTerm[]): number {
  let total = 0;
  for (const { term } of query) total += view.offsets[term + 1] - view.offsets[term];
  return total;
}

/**
 * The `k` best of the documents `ids` (ascending) for a query, as {@link bm25TopK} with an
 * `accept` admitting exactly them returns: same scores, same order. Each term's postings are
 * searched for the admitted documents (galloping forward), so the cost follows `ids` and not the
 * postings: the plan for a small admitted set (a selective access scope or domain).
 */
export function bm25TopKAmong(
  view: PostingsView,
  query: readonly WeightedTerm[],
  ids: ArrayLike<number>,
  k: number,
): ScoredDoc[] {
  if (k < 1 || query.length === 0 || ids.length === 0) return [];
  const { offsets, docs, tfs, lengthNorm } = view;
  const scores = new Float64Array(ids.length);
  const hit = new Uint8Array(ids.length);
  // Term by term in query order, so that each score is the same sum in the same order as bm25TopK's.
  for (const { term, weight } of query) {
    let at = offsets[term];
    const end = offsets[term + 1];
    for (let i = 0; i < ids.length && at < end; i++) {
      at = seek(docs, at, end, ids[i]);
      if (at < end && docs[at] === ids[i]) {
        const tf = tfs[at];
        scores[i] += (weight * tf) / (tf + lengthNorm[ids[i]]);
        hit[i] = 1;
      }
    }
  }
  const top = new TopK(k);
  for (let i = 0; i < ids.length; i++) if (hit[i] === 1) top.offer(ids[i], scores[i]);
  return top.items.sort((a, b) => b.score - a.score || a.id - b.id);
}
