/** Latency figures of one system, in milliseconds. */
export interface LatencySummary {
  n: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  min: number;
  max: number;
}

/**
 * The `p`-th percentile (0-100) of `values` by linear interpolation between closest ranks (the
 * "R-7" rule numpy and most spreadsheets use). NaN for an empty list.
 * @throws RangeError for `p` outside 0-100.
 */
export function percentile(values: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be from 0 to 100, got ${p}`);
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
}

/** n, mean, p50/p95/p99, min and max of a list of durations; NaN figures for an empty list. */
export function summarize(values: readonly number[]): LatencySummary {
  const n = values.length;
  const mean = n === 0 ? Number.NaN : values.reduce((sum, v) => sum + v, 0) / n;
  return {
    n,
    mean,
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    min: n === 0 ? Number.NaN : Math.min(...values),
    max: n === 0 ? Number.NaN : Math.max(...values),
  };
}
