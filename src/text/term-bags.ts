import { tokenize } from "./tokenize.js";

/**
 * Texts tokenized once for every layer: one shared vocabulary and, per text, its bag of terms.
 * BM25 postings and the statistical embedder are both built from it, so a corpus is tokenized a
 * single time at index time.
 */
export interface TermBags {
  /** Every distinct term, in order of first appearance; a term's position is its id. */
  terms: string[];
  /** Term -> id, the inverse of `terms`. */
  termIds: Map<string, number>;
  /** Per text: flat pairs `[termId, count, termId, count, ...]`, term ids ascending. */
  bags: Uint32Array[];
  /** Per text: its number of tokens (the sum of its counts). */
  lengths: Uint32Array;
}

/** An empty vocabulary to add texts to with {@link addTermBag}. */
export function emptyTermBags(): TermBags {
  return { terms: [], termIds: new Map(), bags: [], lengths: new Uint32Array(0) };
}

/** Tokenizes one text against the vocabulary of `into`, adding new terms to it; returns the bag. */
export function bagOf(text: string, into: Pick<TermBags, "terms" | "termIds">): Uint32Array {
  return bagOfTokens(tokenize(text), into);
}

/** The bag of already tokenized text, adding new terms to the vocabulary of `into`. */
export function bagOfTokens(tokens: readonly string[], into: Pick<TermBags, "terms" | "termIds">): Uint32Array {
  const ids: number[] = [];
  for (const token of tokens) {
    let id = into.termIds.get(token);
    if (id === undefined) {
      id = into.terms.length;
      into.termIds.set(token, id);
      into.terms.push(token);
    }
    ids.push(id);
  }
  // Sorting the ids puts equal terms side by side: counting is then one pass, with no map.
  const sorted = Uint32Array.from(ids).sort();
  let distinct = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) distinct++;
  const bag = new Uint32Array(distinct * 2);
  let at = -2;
  for (let i = 0; i < sorted.length; i++) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) {
      at += 2;
      bag[at] = sorted[i];
    }
    bag[at + 1]++;
  }
  return bag;
}

/** The sum of a bag's counts. */
export function bagLength(bag: Uint32Array): number {
  let length = 0;
  for (let i = 1; i < bag.length; i += 2) length += bag[i];
  return length;
}

/** Tokenizes every text once into one shared vocabulary. */
export function termBagsOf(texts: readonly string[]): TermBags {
  const into = emptyTermBags();
  const bags = texts.map((text) => bagOf(text, into));
  return { terms: into.terms, termIds: into.termIds, bags, lengths: Uint32Array.from(bags, bagLength) };
}
