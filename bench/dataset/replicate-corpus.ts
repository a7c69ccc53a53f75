import { mulberry32 } from "./mulberry32.js";

/** A corpus document as the benchmark replicates it. */
export interface SourceDocument {
  id: string;
  title: string;
  text: string;
  metadata: Record<string, unknown>;
}

/** Knobs of {@link perturbText}; the defaults are the ones RETRIEVAL-NOTES.md describes. */
export interface PerturbOptions {
  /** Probability that a word is dropped. @default 0.05 */
  dropProbability?: number;
  /** Probability that a word is replaced by a random word of the token stream. @default 0.05 */
  replaceProbability?: number;
  /** Adjacent swaps as a share of the (perturbed) word count, rounded up. @default 0.1 */
  swapShare?: number;
}

/** Seed of copy `r` of document `i`: r * 1,000,003 + i. */
export function copySeed(copy: number, docIndex: number): number {
  return copy * 1_000_003 + docIndex;
}

/** The whitespace-separated words of a text. */
export function wordsOf(text: string): string[] {
  return text.split(/\s+/).filter((word) => word.length > 0);
}

/**
 * One perturbed copy of a text: each word is dropped with `dropProbability` or else replaced with
 * `replaceProbability` by a word drawn from `tokenStream` (one draw decides both), then
 * ceil(`swapShare` x length) random adjacent pairs are swapped. Pure given `random`.
 */
export function perturbText(
  text: string,
  tokenStream: readonly string[],
  random: () => number,
  options: PerturbOptions = {},
): string {
  const drop = options.dropProbability ?? 0.05;
  const replace = options.replaceProbability ?? 0.05;
  const swapShare = options.swapShare ?? 0.1;
  const words: string[] = [];
  for (const word of wordsOf(text)) {
    const u = random();
    if (u < drop) continue;
    if (u < drop + replace && tokenStream.length > 0)
      words.push(tokenStream[Math.floor(random() * tokenStream.length)]);
    else words.push(word);
  }
  if (words.length >= 2) {
    const swaps = Math.ceil(swapShare * words.length);
    for (let s = 0; s < swaps; s++) {
      const j = Math.floor(random() * (words.length - 1));
      [words[j], words[j + 1]] = [words[j + 1], words[j]];
    }
  }
  return words.join(" ");
}

/**
 * The benchmark corpus of `size` documents: the documents themselves in order, then perturbed
 * copies (copy 1 of every document, then copy 2, ...) until `size` is reached. Copy `r` of
 * document `i` gets the id `<id>_r<r>`, keeps title and metadata, and is perturbed from
 * mulberry32 seeded with {@link copySeed}, so the corpus is the same on every run. Sizes up to the
 * document count are the first `size` documents.
 */
export function replicateCorpus(
  docs: readonly SourceDocument[],
  size: number,
  options: PerturbOptions = {},
): SourceDocument[] {
  if (!Number.isInteger(size) || size < 0) throw new RangeError(`corpus size must be a whole number, got ${size}`);
  if (size <= docs.length) return docs.slice(0, size);
  if (docs.length === 0) throw new RangeError("cannot replicate an empty corpus");
  const tokenStream = docs.flatMap((doc) => wordsOf(doc.text));
  const out: SourceDocument[] = [...docs];
  for (let copy = 1; out.length < size; copy++) {
    for (let i = 0; i < docs.length && out.length < size; i++) {
      const doc = docs[i];
      const random = mulberry32(copySeed(copy, i));
      out.push({
        id: `${doc.id}_r${copy}`,
        title: doc.title,
        text: perturbText(doc.text, tokenStream, random, options),
        metadata: doc.metadata,
      });
    }
  }
  return out;
}
