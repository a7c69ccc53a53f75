/** Parameters and persisted form of the BM25 statistics, and their checks. */
import { LookupKnowledgeError } from "../errors.js";

/** BM25 parameters. */
export interface Bm25Options {
  /**
   * Term-frequency saturation: how much a second, third, ... occurrence of a
   * term in a document still adds. 0 makes BM25 a binary match on terms.
   * Must be a finite number >= 0.
   * @default 0.9
   */
  k1?: number;
  /**
   * Length normalisation, from 0 (document length ignored) to 1 (term
   * frequencies fully scaled by document length relative to the average).
   * @default 0.4
   */
  b?: number;
}

/**
 * Default BM25 parameters: Anserini's. On SciFact train with our tokenizer,
 * k1 in {0.9, 1.2, 1.5} and b in {0.4, 0.75} all land within 0.003 nDCG@10 of
 * these, inside the noise.
 */
export const DEFAULT_BM25_OPTIONS: Readonly<Required<Bm25Options>> = Object.freeze({ k1: 0.9, b: 0.4 });

/**
 * The persisted form of {@link Bm25Stats}: plain JSON, per-document term
 * frequencies against one shared term list.
 */
export interface Bm25Snapshot {
  /** Format version of this snapshot. */
  version: 1;
  k1: number;
  b: number;
  /** Every distinct term; a term's position here is its term id. */
  terms: string[];
  /** For each document, flat pairs `[termId, tf, termId, tf, ...]`. */
  docs: number[][];
  /** For each document, its length in tokens (the sum of its term frequencies when built from tokens). */
  docLengths: number[];
}

/** The parameters with defaults filled in. @throws LookupKnowledgeError `INVALID_OPTION` when one is out of range. */
export function resolveBm25Options(options: Bm25Options): Required<Bm25Options> {
  const k1 = options.k1 ?? DEFAULT_BM25_OPTIONS.k1;
  const b = options.b ?? DEFAULT_BM25_OPTIONS.b;
  if (typeof k1 !== "number" || !Number.isFinite(k1) || k1 < 0) throw new LookupKnowledgeError("INVALID_OPTION", `option bm25.k1 must be a finite number >= 0 (0.9 is usual), got ${String(k1)}.`);
  if (typeof b !== "number" || !Number.isFinite(b) || b < 0 || b > 1) throw new LookupKnowledgeError("INVALID_OPTION", `option bm25.b must be a number from 0 to 1 (0.4 is usual), got ${String(b)}.`);
  return { k1, b };
}

/**
 * Checks a snapshot before it is used; returns its parameters.
 * @throws LookupKnowledgeError `INDEX_CORRUPT` naming the malformed part.
 */
export function validateBm25Snapshot(snapshot: Bm25Snapshot): Required<Bm25Options> {
  if (snapshot.version !== 1) {
    throw corrupt(`unsupported BM25 snapshot version ${String(snapshot.version)} (expected 1)`);
  }
  let params: Required<Bm25Options>;
  try {
    params = resolveBm25Options({ k1: snapshot.k1, b: snapshot.b });
  } catch (error) {
    throw corrupt(`BM25 snapshot parameters are out of range (${String(snapshot.k1)}, ${String(snapshot.b)})`, error);
  }
  const { terms, docs, docLengths } = snapshot;
  if (!Array.isArray(terms) || !Array.isArray(docs) || !Array.isArray(docLengths)) throw corrupt("BM25 snapshot lacks its term, document or length lists");
  if (docs.length !== docLengths.length) {
    throw corrupt(`BM25 snapshot has ${docs.length} documents but ${docLengths.length} document lengths`);
  }
  for (let d = 0; d < docs.length; d++) {
    const pairs = docs[d];
    if (!Array.isArray(pairs) || pairs.length % 2 !== 0) throw corrupt(`BM25 snapshot document ${d} is not a list of term and frequency pairs`);
    for (let i = 0; i < pairs.length; i += 2) {
      const id = pairs[i];
      if (!Number.isInteger(id) || id < 0 || id >= terms.length || !(pairs[i + 1] > 0)) {
        throw corrupt(`BM25 snapshot document ${d} has a bad entry [${String(id)}, ${String(pairs[i + 1])}]`);
      }
    }
  }
  for (const length of docLengths) {
    if (!Number.isFinite(length) || length < 0) {
      throw corrupt(`BM25 snapshot has a bad document length ${String(length)}`);
    }
  }
  return params;
}

function corrupt(detail: string, cause?: unknown): LookupKnowledgeError {
  return new LookupKnowledgeError("INDEX_CORRUPT", detail, { cause });
}
