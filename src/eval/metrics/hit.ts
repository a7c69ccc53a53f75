import { assertCutoff } from "./cutoff.js";
import { relevantPositions } from "./relevance.js";

/**
 * 1 when at least one of the top `k` documents is relevant (grade > 0), else 0. Averaged over
 * queries this is the hit rate (success@k).
 *
 * @param ranked Document ids, best first (see `rankRun`).
 * @param judgements Graded relevance of the judged documents for this query.
 * @param k Cutoff; a positive integer. A ranking shorter than `k` is fine.
 * @returns 0 or 1.
 */
export function hitAtK(
  ranked: readonly string[],
  judgements: ReadonlyMap<string, number>,
  k: number,
): number {
  assertCutoff(k);
  return relevantPositions(ranked, judgements, k).length > 0 ? 1 : 0;
}
