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

const ASCII = /^[\x00-\x7f]*$/;
/** {@link WORD} on lower-cased ASCII text, where letters and digits are just these (and ’ cannot occur). */
const ASCII_WORD = /[a-z0-9]+(?:'[a-z]+)?/g;
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** Stems already computed: a corpus repeats its words, and stemming is most of tokenizing. */
const STEMS = new Map<string, string>();
/** Past this many words the memo starts over, so that memory stays bounded on any input. */
const MAX_MEMOISED_STEMS = 200_000;

function memoisedStem(word: string): string {
  let stemmed = STEMS.get(word);
  if (stemmed === undefined) {
    if (STEMS.size >= MAX_MEMOISED_STEMS) STEMS.clear();
    STEMS.set(word, (stemmed = stem(word)));
  }
  return stemmed;
}

/**
 * Splits text into normalised terms: lower-cased, accents folded, possessives
 * dropped, stopwords removed and stemmed. Every layer (FlexSearch encoding,
 * BM25 statistics, the statistical embedder, hint matching) uses this one
 * function, so a term means the same thing everywhere.
 */
export function tokenize(text: string, options: TokenizeOptions = {}): string[] {
  const removeStopwords = options.removeStopwords ?? true;
  const doStem = options.stem ?? true;
  // ASCII text has nothing to decompose or fold: skip the two whole-text passes.
  const ascii = ASCII.test(text);
  const folded = (ascii ? text : text.normalize("NFKD").replace(/\p{M}+/gu, "")).toLowerCase();
  const out: string[] = [];
  for (const match of folded.matchAll(ascii ? ASCII_WORD : WORD)) {
    let word = match[0];
    if (word.includes("'") || word.includes("’")) word = word.replace(/['’]s$/u, "").replace(/['’]/gu, "");
    if (word.length === 0) continue;
    if (removeStopwords && ENGLISH_STOPWORDS.has(word)) continue;
    if (doStem) word = memoisedStem(word);
    out.push(word);
  }
  return out;
}
