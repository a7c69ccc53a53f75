import type { Bm25Stats } from "./bm25.js";

/** How much of a query a chunk covers, from 0 to 1. */
export type TermCoverage = (queryTerms: readonly string[], chunkId: number) => number;

/**
 * Coverage weighted by IDF: the share of the query's distinctive weight found in the chunk. A
 * rare query term that the chunk (or the whole corpus) lacks costs much more than a common one,
 * which is what separates "the corpus does not cover this" from a loose paraphrase.
 */
export function createTermCoverage(bm25: Bm25Stats): TermCoverage {
  return (queryTerms, chunkId) => termCoverage(bm25, queryTerms, (term) => bm25.contains(chunkId, term));
}

/** {@link createTermCoverage}'s share for any text: `holds` says which terms it has. */
export function termCoverage(
  bm25: Pick<Bm25Stats, "idf">,
  queryTerms: readonly string[],
  holds: (term: string) => boolean,
): number {
  let total = 0;
  let found = 0;
  for (const term of new Set(queryTerms)) {
    const weight = bm25.idf(term);
    total += weight;
    if (holds(term)) found += weight;
  }
  return total > 0 ? found / total : 0;
}
