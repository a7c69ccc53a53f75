import { CJK_STOPWORDS } from "./stopwords.js";

/**
 * A character of Chinese, Japanese or Korean text: the Han, Hiragana, Katakana and Hangul scripts,
 * plus the CJK compatibility blocks whose characters normalise into them (`㍿` is `株式会社`,
 * half-width `ｰ` and `ﾞ` are the prolonged-sound and voicing marks). Text without one is tokenized
 * exactly as it was before CJK support.
 */
const CJK_CHAR =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3006\u30fc\u3190-\u33ff\uf900-\ufaff\uff61-\uff9f\u{1f200}-\u{1f2ff}]/u;

/**
 * In NFKC text: a run of Hangul (group 1), or a run of Han and kana (group 2). The prolonged-sound
 * mark `ー` and voicing marks that found nothing to compose with are Common or Inherited, not
 * Katakana, but belong to the word they sit in.
 */
// The combining voicing marks stand alone in the class on purpose: a mark left over belongs to its run.
const CJK_RUN =
  // eslint-disable-next-line no-misleading-character-class
  /(\p{Script=Hangul}+)|([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3006\u30fc\u3099\u309a]+)/gu;

/**
 * Longest text handed to `Intl.Segmenter` in one call. V8's segment iterator costs time
 * quadratic in the length of the string it walks (100,000 characters took 20 s on Node 20),
 * while pieces of a few hundred characters cost about 1 µs a character. Longer runs (a run has no
 * punctuation or space, so only pathological input has them) are cut at fixed offsets: the same
 * text is always cut at the same places, and at most one bigram is lost per cut.
 */
export const MAX_SEGMENTER_INPUT = 256;

/**
 * ICU segments Chinese and Japanese with one combined dictionary whatever the locale; naming one
 * keeps the terms independent of the machine's default locale. Null where the runtime has no
 * `Intl.Segmenter`: every character then counts as a one-character word, which makes the rules
 * below plain character bigrams.
 */
const SEGMENTER: Intl.Segmenter | null =
  typeof Intl.Segmenter === "function" ? new Intl.Segmenter("ja", { granularity: "word" }) : null;

/** True when the text holds a Chinese, Japanese or Korean character (a cheap test before the CJK path). */
export function containsCjk(text: string): boolean {
  return CJK_CHAR.test(text);
}

/**
 * Splits NFKC-normalised text into CJK runs, handed to `onRun` with whether the run is Hangul,
 * and the text between them (Latin, digits, punctuation, spaces), handed to `onOther`; all in
 * text order.
 */
export function forEachCjkPart(
  normalized: string,
  onOther: (text: string) => void,
  onRun: (run: string, hangul: boolean) => void,
): void {
  let end = 0;
  for (const match of normalized.matchAll(CJK_RUN)) {
    const start = match.index ?? 0;
    if (start > end) onOther(normalized.slice(end, start));
    onRun(match[0], match[1] !== undefined);
    end = start + match[0].length;
  }
  if (end < normalized.length) onOther(normalized.slice(end));
}

/** Pushes the adjacent pairs of code points of `chars` (at least two). */
function pushBigrams(chars: readonly string[], out: string[]): void {
  for (let i = 1; i < chars.length; i++) out.push(chars[i - 1] + chars[i]);
}

/**
 * Pushes the terms of one word: the word itself, and for words of three or more characters also
 * their bigrams, so that a compound matches its parts (データベース and データ share デー and ータ)
 * and a Korean word with a particle matches it without one (환불은 and 환불을 share 환불).
 */
function pushWord(word: string, out: string[]): void {
  out.push(word);
  // Most words are short: spread into code points (Han beyond the BMP is two UTF-16 units) only when needed.
  if (word.length < 3) return;
  const chars = [...word];
  if (chars.length >= 3) pushBigrams(chars, out);
}

/** Pushes the terms of consecutive one-character words: the character alone, or the bigrams of two or more. */
function flushSingles(singles: string[], out: string[]): void {
  if (singles.length === 1) out.push(singles[0]);
  else if (singles.length > 1) pushBigrams(singles, out);
  singles.length = 0;
}

/** Calls `visit` with each word-like segment of a run of Han and kana, fed to the segmenter in pieces of at most {@link MAX_SEGMENTER_INPUT}. */
function forEachSegment(run: string, visit: (word: string) => void): void {
  if (SEGMENTER === null) {
    for (const char of run) visit(char);
    return;
  }
  for (let start = 0; start < run.length;) {
    let end = Math.min(start + MAX_SEGMENTER_INPUT, run.length);
    // Never cut a surrogate pair in two.
    if (end < run.length && /[\udc00-\udfff]/.test(run[end])) end++;
    const piece = run.slice(start, end);
    const segments = SEGMENTER.segment(piece);
    // Hopping with `containing` costs about two thirds of what the segments' iterator does.
    for (let at = 0; at < piece.length;) {
      const segment = segments.containing(at);
      if (segment === undefined) break;
      if (segment.isWordLike) visit(segment.segment);
      at = segment.index + segment.segment.length;
    }
    start = end;
  }
}

/**
 * Pushes the terms of one CJK run, NFKC-normalised (voicing marks kept: ガ is not カ).
 *
 * Why words and bigrams: documents and queries go through this one function, so what matters is
 * that the same wording yields the same terms in both. `Intl.Segmenter` (ICU's dictionary) gives
 * real words, which keeps a query's terms the document's terms (`退款需要谁审批` gives 退款, 需要,
 * 审批: words, as a refund-approval document writes them) and keeps the IDF-weighted coverage of
 * the relevance assessment meaningful. Plain character bigrams across a whole run would also make
 * junk terms out of word boundaries (款需, 谁审) that no document holds, and each one costs a
 * query the largest IDF. But a dictionary does not know a corpus's jargon: it leaves unknown
 * words as single characters (结转 comes out as 结, 转) and may split a compound differently from
 * its parts. So:
 * - consecutive one-character words become their bigrams (结|转 gives 结转, the same term as a
 *   text where the dictionary knew the word), and a lone one stays itself (谁);
 * - a word of three or more characters gives itself and its bigrams (see {@link pushWord});
 * - a two-character word is its own only bigram.
 * Where `Intl.Segmenter` is missing or has no dictionary, these rules degrade to plain bigrams,
 * which still match, only less precisely.
 *
 * Korean separates words with spaces, so a Hangul run is one word; its particles attach to it
 * (환불은, 환불을), which its bigrams make up for. ICU has no Korean dictionary: Hangul runs skip
 * the segmenter.
 *
 * Stopwords: a small list of whole function and question words
 * ({@link CJK_STOPWORDS}) is dropped, like the English list, and for the same reason: BM25's IDF
 * would keep の or 的 from ranking much, but question words (谁, 什么, 如何) are rare in documents,
 * and a query term no document has costs the coverage of every answer. Only a segment that *is*
 * a stopword is dropped, never a character inside a longer word (的确, 方法は keeps 方法), and a
 * dropped word separates the one-character words on either side.
 */
export function pushCjkTerms(run: string, hangul: boolean, removeStopwords: boolean, out: string[]): void {
  if (hangul) {
    if (!(removeStopwords && CJK_STOPWORDS.has(run))) pushWord(run, out);
    return;
  }
  const singles: string[] = [];
  forEachSegment(run, (word) => {
    if (removeStopwords && CJK_STOPWORDS.has(word)) {
      flushSingles(singles, out);
    } else if (word.length === 1 || (word.length === 2 && (word.codePointAt(0) ?? 0) > 0xffff)) {
      singles.push(word);
    } else {
      flushSingles(singles, out);
      pushWord(word, out);
    }
  });
  flushSingles(singles, out);
}
