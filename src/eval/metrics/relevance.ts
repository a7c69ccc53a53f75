/**
 * True when a judged grade counts as relevant: grade > 0, which for integer grades is trec_eval's
 * default relevance level of 1. Unjudged documents (`undefined`) are non-relevant.
 */
export function isRelevant(grade: number | undefined): boolean {
  return grade !== undefined && grade > 0;
}

/** Number of judged documents that count as relevant. */
export function countRelevant(judgements: ReadonlyMap<string, number>): number {
  let count = 0;
  for (const grade of judgements.values()) {
    if (isRelevant(grade)) count += 1;
  }
  return count;
}

/**
 * Positions (0-based, below `k`) of the relevant documents in `ranked`. An id that occurs again
 * further down is credited once only, so a ranking that skipped `rankRun` cannot score above 1.
 */
export function relevantPositions(
  ranked: readonly string[],
  judgements: ReadonlyMap<string, number>,
  k: number,
): number[] {
  const seen = new Set<string>();
  const positions: number[] = [];
  const depth = Math.min(k, ranked.length);
  for (let i = 0; i < depth; i += 1) {
    const docId = ranked[i];
    if (seen.has(docId)) continue;
    seen.add(docId);
    if (isRelevant(judgements.get(docId))) positions.push(i);
  }
  return positions;
}
