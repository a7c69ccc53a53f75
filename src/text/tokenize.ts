import { ENGLISH_STOPWORDS } from "./stopwords.js";
import { stem } from "./stem.js";

/** Options for {@link tokenize}. */
export interface TokenizeOptions {
  /**
   * Drop common English function words ("the", "of", ...).
   * @default true
   */
  removeStopwords?: boolean;
  /**
   * Reduce words to a stem so that "refunds" and "refunded" match "refund".
   * @default true
   */
  stem?: boolean;
}

/**
 * Version of the term rules (folding, stopwords, stemmer). Saved indexes record it: terms from
 * another version would not match, so such an index must be rebuilt.
 */
export const TOKENIZER_VERSION = 1;

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/**
 * Splits text into normalised terms: lower-cased, accents folded, possessives
 * dropped, stopwords removed and stemmed. Every layer (FlexSearch encoding,
 * BM25 statistics, the statistical embedder, hint matching) uses this one
 * function, so a term means the same thing everywhere.
 */
export function tokenize(text: string, options: TokenizeOptions = {}): string[] {
  const removeStopwords = options.removeStopwords ?? true;
  const doStem = options.stem ?? true;
  const folded = text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase();
  const out: string[] = [];
  for (const match of folded.matchAll(WORD)) {
    let word = match[0].replace(/['’]s$/u, "").replace(/['’]/gu, "");
    if (word.length === 0) continue;
    if (removeStopwords && ENGLISH_STOPWORDS.has(word)) continue;
    if (doStem) word = stem(word);
    out.push(word);
  }
  return out;
}
