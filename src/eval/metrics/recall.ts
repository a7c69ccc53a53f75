import { assertCutoff } from "./cutoff.js";
import { countRelevant, relevantPositions } from "./relevance.js";

/**
 * Fraction of the query's relevant documents (grade > 0) found in the top `k` of `ranked`.
 * Returns 0 when the query has no relevant judgement; `evaluateRun` leaves such queries out of its
 * means rather than averaging that 0 in.
 *
 * @param ranked Document ids, best first (see `rankRun`).
 * @param judgements Graded relevance of the judged documents for this query.
 * @param k Cutoff; a positive integer. A ranking shorter than `k` is fine.
 * @returns A value in [0, 1].
 */
export function recallAtK(
  ranked: readonly string[],
  judgements: ReadonlyMap<string, number>,
  k: number,
): number {
  assertCutoff(k);
  const relevant = countRelevant(judgements);
  if (relevant === 0) return 0;
  return relevantPositions(ranked, judgements, k).length / relevant;
}
