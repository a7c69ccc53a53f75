import { assertCutoff } from "./cutoff.js";
import { relevantPositions } from "./relevance.js";

/**
 * Reciprocal rank of the first relevant document (grade > 0) within the top `k`: 1 / rank with
 * rank counted from 1, or 0 when none of the top `k` is relevant. Averaged over queries this is
 * MRR@k.
 *
 * @param ranked Document ids, best first (see `rankRun`).
 * @param judgements Graded relevance of the judged documents for this query.
 * @param k Cutoff; a positive integer. A ranking shorter than `k` is fine.
 * @returns A value in [0, 1].
 */
export function mrrAtK(
  ranked: readonly string[],
  judgements: ReadonlyMap<string, number>,
  k: number,
): number {
  assertCutoff(k);
  const [first] = relevantPositions(ranked, judgements, k);
  return first === undefined ? 0 : 1 / (first + 1);
}
