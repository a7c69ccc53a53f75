import { mulberry32 } from "../l1/embeddings/linear-algebra.js";
import { tokenize } from "../text/tokenize.js";

/** A question drawn from the corpus itself: one sentence of a chunk, whose source is known. */
export interface PseudoQuery {
  /** The chunk the sentence came from. */
  chunk: number;
  /** The sentence, asked as a query. */
  query: string;
  /** The chunk's search text without that sentence: what the chunk says besides the question. */
  heldOut: string;
}

/** Shortest and longest sentence (in words) that makes a usable question. */
const MIN_WORDS = 5;
const MAX_WORDS = 40;
/** Terms the query and the rest of its chunk each need, so that both layers have something to match. */
const MIN_TERMS = 3;

/** Sentences of a text: split at sentence ends and line breaks, list markers and table pipes dropped. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|(?<=[。！？])\s*|\n+/u)
    .map((sentence) => sentence.replace(/^[\s>*#|-]+|[\s|]+$/gu, "").trim())
    .filter((sentence) => sentence.length > 0);
}

/** Han, kana and Hangul characters: text written without spaces between words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/** Words of a sentence; in Chinese, Japanese or Korean text every two characters count as one. */
function wordCount(sentence: string): number {
  const unspaced = sentence.match(UNSPACED)?.length ?? 0;
  const spaced = sentence
    .replace(UNSPACED, " ")
    .split(/\s+/u)
    .filter((word) => word.length > 0).length;
  return spaced + Math.ceil(unspaced / 2);
}

function usable(sentence: string): boolean {
  const words = wordCount(sentence);
  return words >= MIN_WORDS && words <= MAX_WORDS && new Set(tokenize(sentence)).size >= MIN_TERMS;
}

/**
 * Draws up to `count` pseudo-queries, at most one per chunk, from chunks in a seeded random
 * order: a usable sentence of the chunk's search text (5 to 40 words, 3 distinct terms) becomes
 * the query, and the rest of the text, which must keep 3 terms, is what the chunk is scored by
 * when the question is asked. Holding the sentence out is what makes the question a fair test:
 * asked against its own verbatim text, any keyword engine would look perfect.
 */
export function samplePseudoQueries(texts: readonly string[], count: number, seed = 42): PseudoQuery[] {
  const order = texts.map((_, i) => i);
  const random = mulberry32(seed);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const out: PseudoQuery[] = [];
  for (const chunk of order) {
    if (out.length >= count) break;
    const text = texts[chunk];
    const candidates = sentencesOf(text).filter(usable);
    if (candidates.length === 0) continue;
    const query = candidates[Math.floor(random() * candidates.length)];
    // Every occurrence goes: the sentence may also sit inside an earlier, longer one.
    const heldOut = text.split(query).join(" ");
    if (new Set(tokenize(heldOut)).size < MIN_TERMS) continue;
    out.push({ chunk, query, heldOut });
  }
  return out;
}
