/** One timed call: which system answers which query in which round. */
export interface ScheduledCall {
  round: number;
  system: number;
  query: number;
}

/**
 * The order of the timed calls: round `r` asks query `r mod queryCount` of every system that still
 * has calls left (`calls[s]` per system), starting with system `r mod systemCount` and going round,
 * so no system is always first (warm caches) or last (after the others' garbage). Pure.
 */
export function rotatingSchedule(calls: readonly number[], queryCount: number): ScheduledCall[] {
  if (queryCount < 1) throw new RangeError("a schedule needs at least one query");
  const systemCount = calls.length;
  const rounds = Math.max(0, ...calls);
  const out: ScheduledCall[] = [];
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < systemCount; step++) {
      const system = (round + step) % systemCount;
      if (round < calls[system]) out.push({ round, system, query: round % queryCount });
    }
  }
  return out;
}

/** Calls a system gets: as many as fit its time budget at its warm-up cost, within [min, max]. */
export function callBudget(costMs: number, budgetMs: number, min: number, max: number): number {
  const fit = costMs > 0 ? Math.floor(budgetMs / costMs) : max;
  return Math.max(min, Math.min(max, fit));
}
