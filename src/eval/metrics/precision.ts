import { assertCutoff } from "./cutoff.js";
import { relevantPositions } from "./relevance.js";

/**
 * Relevant documents (grade > 0) in the top `k`, divided by `k`. As in trec_eval's `P_k`, the
 * divisor stays `k` when fewer than `k` documents were retrieved, so a short ranking is penalised.
 *
 * @param ranked Document ids, best first (see `rankRun`).
 * @param judgements Graded relevance of the judged documents for this query.
 * @param k Cutoff; a positive integer.
 * @returns A value in [0, 1].
 */
export function precisionAtK(
  ranked: readonly string[],
  judgements: ReadonlyMap<string, number>,
  k: number,
): number {
  assertCutoff(k);
  return relevantPositions(ranked, judgements, k).length / k;
}
