/** Building BM25 postings from term bags, and changing them in place of a rebuild. */
import type { Bm25Postings } from "./bm25-codec.js";
import { internalError } from "../errors.js";

/** Postings of documents given as term bags (`[termId, count, ...]` against `terms`). */
export function postingsFromBags(
  terms: readonly string[],
  bags: readonly Uint32Array[],
  params: { k1: number; b: number },
): Bm25Postings {
  const termCount = terms.length;
  const df = new Uint32Array(termCount);
  let postingCount = 0;
  const docLengths = new Uint32Array(bags.length);
  bags.forEach((bag, d) => {
    for (let i = 0; i < bag.length; i += 2) {
      df[bag[i]]++;
      docLengths[d] += bag[i + 1];
    }
    postingCount += bag.length / 2;
  });
  const offsets = new Uint32Array(termCount + 1);
  for (let t = 0; t < termCount; t++) offsets[t + 1] = offsets[t] + df[t];
  const docs = new Uint32Array(postingCount);
  const tfs = new Uint32Array(postingCount);
  const cursor = offsets.slice(0, termCount);
  bags.forEach((bag, d) => {
    for (let i = 0; i < bag.length; i += 2) {
      const at = cursor[bag[i]]++;
      docs[at] = d;
      tfs[at] = bag[i + 1];
    }
  });
  return { ...params, terms: [...terms], offsets, docs, tfs, docLengths };
}

/** A change to a BM25 index's documents: what a re-index of edited files does to it. */
export interface PostingsChange {
  /** Old document number -> new number, or -1 for a removed document; kept documents keep their order. */
  renumber: Int32Array;
  /** Number of documents after the change. */
  size: number;
  /** The vocabulary after the change; the old terms must be its first entries, unchanged. */
  terms: readonly string[];
  /** New documents: their new number and term bag against `terms`. */
  added: readonly { id: number; bag: Uint32Array }[];
}

/**
 * The postings after a change, term by term: kept postings renumbered, new ones merged in, so the
 * result is what {@link postingsFromBags} gives for the new document list (up to term ids, which
 * do not change any score).
 * @throws Error when the change is inconsistent (a number out of range, order not kept, a new term list that drops old terms).
 */
export function applyPostingsChange(old: Bm25Postings, change: PostingsChange): Bm25Postings {
  const { renumber, size, terms, added } = change;
  if (renumber.length !== old.docLengths.length)
    throw internalError(`the change renumbers ${renumber.length} documents, the index has ${old.docLengths.length}`);
  if (terms.length < old.terms.length || old.terms.some((term, t) => terms[t] !== term))
    throw internalError("the new vocabulary must start with the old one");
  const docLengths = new Uint32Array(size);
  const filled = new Uint8Array(size);
  let last = -1;
  for (let d = 0; d < renumber.length; d++) {
    const to = renumber[d];
    if (to < 0) continue;
    if (to >= size || to <= last)
      throw internalError(`document ${d} is renumbered to ${to}, out of range or out of order`);
    last = to;
    docLengths[to] = old.docLengths[d];
    filled[to] = 1;
  }
  const addedSorted = [...added].sort((a, b) => a.id - b.id);
  for (const { id, bag } of addedSorted) {
    if (!(id >= 0 && id < size) || filled[id]) throw internalError(`new document ${id} is out of range or taken`);
    filled[id] = 1;
    for (let i = 0; i < bag.length; i += 2) docLengths[id] += bag[i + 1];
  }
  if (filled.includes(0)) throw internalError("some document numbers are neither kept nor added");

  const termCount = terms.length;
  const newDf = new Uint32Array(termCount);
  for (const { bag } of addedSorted) for (let i = 0; i < bag.length; i += 2) newDf[bag[i]]++;
  // New postings per term, already in ascending document order (the bags are sorted by id).
  const newOffsets = new Uint32Array(termCount + 1);
  for (let t = 0; t < termCount; t++) newOffsets[t + 1] = newOffsets[t] + newDf[t];
  const newDocs = new Uint32Array(newOffsets[termCount]);
  const newTfs = new Uint32Array(newOffsets[termCount]);
  const cursor = newOffsets.slice(0, termCount);
  for (const { id, bag } of addedSorted) {
    for (let i = 0; i < bag.length; i += 2) {
      const at = cursor[bag[i]]++;
      newDocs[at] = id;
      newTfs[at] = bag[i + 1];
    }
  }

  const offsets = new Uint32Array(termCount + 1);
  const docs = new Uint32Array(old.docs.length + newDocs.length);
  const tfs = new Uint32Array(docs.length);
  let p = 0;
  for (let t = 0; t < termCount; t++) {
    let a = t < old.terms.length ? old.offsets[t] : 0;
    const aEnd = t < old.terms.length ? old.offsets[t + 1] : 0;
    let n = newOffsets[t];
    const nEnd = newOffsets[t + 1];
    for (;;) {
      while (a < aEnd && renumber[old.docs[a]] < 0) a++;
      const kept = a < aEnd ? renumber[old.docs[a]] : Infinity;
      const fresh = n < nEnd ? newDocs[n] : Infinity;
      if (kept === Infinity && fresh === Infinity) break;
      if (kept < fresh) {
        docs[p] = kept;
        tfs[p++] = old.tfs[a++];
      } else {
        docs[p] = fresh;
        tfs[p++] = newTfs[n++];
      }
    }
    offsets[t + 1] = p;
  }
  return { k1: old.k1, b: old.b, terms: [...terms], offsets, docs: docs.slice(0, p), tfs: tfs.slice(0, p), docLengths };
}
