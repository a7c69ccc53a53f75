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

/** The parameters with defaults filled in. @throws LookupKnowledgeError `INVALID_OPTION` when one is out of range. */
export function resolveBm25Options(options: Bm25Options): Required<Bm25Options> {
  const k1 = options.k1 ?? DEFAULT_BM25_OPTIONS.k1;
  const b = options.b ?? DEFAULT_BM25_OPTIONS.b;
  if (typeof k1 !== "number" || !Number.isFinite(k1) || k1 < 0)
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `option bm25.k1 must be a finite number >= 0 (0.9 is usual), got ${String(k1)}.`,
    );
  if (typeof b !== "number" || !Number.isFinite(b) || b < 0 || b > 1)
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `option bm25.b must be a number from 0 to 1 (0.4 is usual), got ${String(b)}.`,
    );
  return { k1, b };
}
