import { assertCutoff } from "./cutoff.js";
import { relevantPositions } from "./relevance.js";

/** Discount of the document at 0-based position `i`, i.e. log2(rank + 1) for rank = i + 1. */
function discount(i: number): number {
  return Math.log2(i + 2);
}

/**
 * Normalised discounted cumulative gain at cutoff `k`, computed the way trec_eval's `ndcg_cut`
 * (and so pytrec_eval and BEIR) does:
 *
 * - gain is linear: a document graded `rel` adds `rel` (not `2^rel − 1`); grades ≤ 0 add nothing;
 * - the document at rank r (1-based) is discounted by log2(r + 1), so rank 1 is undiscounted;
 * - the ideal DCG places the judgements' `k` highest grades at ranks 1..k, whether or not the run
 *   retrieved those documents;
 * - the result is 0 when the ideal DCG is 0 (no relevant judgement).
 *
 * `ranked` should be the output of `rankRun` (best first, unique ids); a repeated id is credited
 * only at its first position.
 *
 * @param ranked Document ids, best first.
 * @param judgements Graded relevance of the judged documents for this query.
 * @param k Cutoff; a positive integer. A ranking shorter than `k` is fine.
 * @returns A value in [0, 1].
 * @example
 * ndcgAtK(["d2", "d1"], new Map([["d1", 2], ["d2", 1]]), 10); // (1 + 2/log2 3) / (2 + 1/log2 3) ≈ 0.860
 */
export function ndcgAtK(
  ranked: readonly string[],
  judgements: ReadonlyMap<string, number>,
  k: number,
): number {
  assertCutoff(k);
  const idealGains = [...judgements.values()]
    .filter((grade) => grade > 0)
    .sort((a, b) => b - a)
    .slice(0, k);
  let idealDcg = 0;
  idealGains.forEach((gain, i) => {
    idealDcg += gain / discount(i);
  });
  if (idealDcg === 0) return 0;

  let dcg = 0;
  for (const i of relevantPositions(ranked, judgements, k)) {
    dcg += (judgements.get(ranked[i]) ?? 0) / discount(i);
  }
  return dcg / idealDcg;
}
