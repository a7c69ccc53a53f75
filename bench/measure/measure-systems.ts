import { BenchError, errorText } from "../bench-error.js";
import type { BenchQuery, BenchSystem, SystemRole } from "../systems/bench-system.js";
import { summarize, type LatencySummary } from "./percentile.js";
import { callBudget, rotatingSchedule } from "./schedule.js";

/** How long and how often each system is called. */
export interface MeasureSettings {
  /** Warm-up calls per system at most (before any timed call). */
  warmupCalls: number;
  /** Warm-up stops after this many milliseconds per system (at least 2 calls). */
  warmupMs: number;
  /** Timed calls each system may spend, at its warm-up cost, in milliseconds. */
  budgetMs: number;
  /** Timed calls per system at least, whatever the budget. */
  minCalls: number;
  /** Timed calls per system at most. */
  maxCalls: number;
}

/** The timed calls of one system. */
export interface SystemMeasurement {
  id: string;
  label: string;
  role: SystemRole;
  /** Timed calls made. */
  calls: number;
  /** True when the time budget, not `maxCalls`, set `calls`. */
  cappedByBudget: boolean;
  /** Distinct queries the timed calls used. */
  distinctQueries: number;
  warmup: { calls: number; medianMs: number };
  latency: LatencySummary;
}

async function call(system: BenchSystem, query: BenchQuery): Promise<number> {
  const start = performance.now();
  try {
    await system.run(query);
  } catch (error) {
    throw new BenchError(`system ${system.id} failed on query ${query.index + 1}: ${errorText(error)}`, {
      cause: error,
    });
  }
  return performance.now() - start;
}

/**
 * Warms every system up (on queries from the end of the list, so that a system with few timed
 * calls is not timed on queries it has just seen), gives each a number of timed calls from its
 * warm-up cost and the budget, then times them all in rotating round-robin order on the same
 * queries (see `rotatingSchedule`). `afterWarmup` runs between the two (reset collectors, GC).
 */
export async function measureSystems(
  systems: readonly BenchSystem[],
  queries: readonly BenchQuery[],
  settings: MeasureSettings,
  hooks: { afterWarmup?: () => void; log?: (line: string) => void } = {},
): Promise<SystemMeasurement[]> {
  const log = hooks.log ?? (() => {});
  const warmups: { calls: number; medianMs: number }[] = [];
  for (const system of systems) {
    const samples: number[] = [];
    const start = performance.now();
    while (
      samples.length < settings.warmupCalls &&
      (samples.length < 2 || performance.now() - start < settings.warmupMs)
    ) {
      samples.push(await call(system, queries[queries.length - 1 - (samples.length % queries.length)]));
    }
    const medianMs = summarize(samples).p50;
    warmups.push({ calls: samples.length, medianMs });
    log(`warm-up ${system.id}: ${samples.length} calls, median ${medianMs.toFixed(3)} ms`);
  }
  const calls = warmups.map(({ medianMs }) =>
    callBudget(medianMs, settings.budgetMs, settings.minCalls, settings.maxCalls),
  );
  hooks.afterWarmup?.();

  const durations: number[][] = systems.map(() => []);
  const schedule = rotatingSchedule(calls, queries.length);
  let lastLog = performance.now();
  for (const [i, { system, query }] of schedule.entries()) {
    durations[system].push(await call(systems[system], queries[query]));
    if (performance.now() - lastLog > 10_000) {
      lastLog = performance.now();
      log(`timed calls: ${i + 1} of ${schedule.length}`);
    }
  }
  return systems.map((system, s) => ({
    id: system.id,
    label: system.label,
    role: system.role,
    calls: calls[s],
    cappedByBudget: calls[s] < settings.maxCalls,
    distinctQueries: Math.min(calls[s], queries.length),
    warmup: warmups[s],
    latency: summarize(durations[s]),
  }));
}
