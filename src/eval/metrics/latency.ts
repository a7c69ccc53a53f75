/** Per-query latency of one variant, in milliseconds. */
export interface LatencySummary {
  /** Queries measured. */
  queries: number;
  /** Arithmetic mean. */
  meanMs: number;
  /** Median (nearest rank). */
  p50Ms: number;
  /** 95th percentile (nearest rank). */
  p95Ms: number;
  /** 99th percentile (nearest rank). */
  p99Ms: number;
  /** Slowest query. */
  maxMs: number;
}

/** The p-th percentile (0-100) of a list of numbers, nearest-rank; 0 for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Mean, nearest-rank p50/p95/p99 and maximum of a list of durations (all 0 when it is empty). */
export function summarizeLatency(valuesMs: readonly number[]): LatencySummary {
  const n = valuesMs.length;
  return {
    queries: n,
    meanMs: n === 0 ? 0 : valuesMs.reduce((sum, value) => sum + value, 0) / n,
    p50Ms: percentile(valuesMs, 50),
    p95Ms: percentile(valuesMs, 95),
    p99Ms: percentile(valuesMs, 99),
    maxMs: n === 0 ? 0 : Math.max(...valuesMs),
  };
}
