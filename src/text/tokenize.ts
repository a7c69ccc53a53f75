import { containsCjk, forEachCjkPart, pushCjkTerms } from "./cjk.js";
import { ENGLISH_STOPWORDS } from "./stopwords.js";
import { stem } from "./stem.js";

/** Options for {@link tokenize}. */
export interface TokenizeOptions {
  /**
   * Drop common function words: English ("the", "of", ...) and Chinese, Japanese and Korean
   * (的, の, 및, ...; see `CJK_STOPWORDS`).
   * @default true
   */
  removeStopwords?: boolean;
  /**
   * Reduce words to a stem so that "refunds" and "refunded" match "refund". Chinese, Japanese and
   * Korean terms are never stemmed.
   * @default true
   */
  stem?: boolean;
}

/**
 * Version of the term rules (folding, stopwords, stemmer, CJK segmentation). Saved indexes record
 * it: terms from another version would not match, so such an index must be rebuilt. Version 2
 * segments Chinese, Japanese and Korean text and keeps its voicing marks.
 */
export const TOKENIZER_VERSION = 2;

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

/** Pushes the terms of lower-cased, folded text, matched by `pattern`: possessives dropped, stopwords removed, stemmed. */
function pushWords(folded: string, pattern: RegExp, removeStopwords: boolean, doStem: boolean, out: string[]): void {
  for (const match of folded.matchAll(pattern)) {
    let word = match[0];
    if (word.includes("'") || word.includes("’")) word = word.replace(/['’]s$/u, "").replace(/['’]/gu, "");
    if (word.length === 0) continue;
    if (removeStopwords && ENGLISH_STOPWORDS.has(word)) continue;
    if (doStem) word = memoisedStem(word);
    out.push(word);
  }
}

/** Decomposes, drops combining marks (accents: é is e) and lower-cases. */
function foldAccents(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
}

/**
 * Splits text into normalised terms: lower-cased, accents folded, possessives
 * dropped, stopwords removed and stemmed. Every layer (FlexSearch encoding,
 * BM25 statistics, the statistical embedder, hint matching) uses this one
 * function, so a term means the same thing everywhere.
 *
 * Chinese, Japanese and Korean runs are NFKC-normalised instead of accent-folded (half-width ｶﾞ is
 * ガ, and ガ stays ガ: folding would make it カ) and split into words and bigrams (see
 * `pushCjkTerms`); the Latin words around them are tokenized as in text without CJK. Text with no
 * CJK character never reaches that path, and its terms are those of version 1.
 *
 * @example
 * tokenize("Refunds for the café"); // ["refund", "cafe"]
 * tokenize("Okta のパスワード"); // ["okta", "パスワード", "パス", "スワ", "ワー", "ード"]
 */
export function tokenize(text: string, options: TokenizeOptions = {}): string[] {
  const removeStopwords = options.removeStopwords ?? true;
  const doStem = options.stem ?? true;
  const out: string[] = [];
  // ASCII text has nothing to decompose or fold: skip the two whole-text passes.
  if (ASCII.test(text)) pushWords(text.toLowerCase(), ASCII_WORD, removeStopwords, doStem, out);
  else if (!containsCjk(text)) pushWords(foldAccents(text), WORD, removeStopwords, doStem, out);
  else {
    // NFKC first, so that half-width kana and their voicing marks join into the runs; NFKD of the
    // NFKC text between runs is NFKD of the original, so Latin words fold as they always did.
    forEachCjkPart(
      text.normalize("NFKC"),
      (other) =>
        ASCII.test(other)
          ? pushWords(other.toLowerCase(), ASCII_WORD, removeStopwords, doStem, out)
          : pushWords(foldAccents(other), WORD, removeStopwords, doStem, out),
      (run, hangul) => pushCjkTerms(run, hangul, removeStopwords, out),
    );
  }
  return out;
}
