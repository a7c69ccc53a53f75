/** Latency percentiles in bounded memory. */
import { mulberry32 } from "../../seeded-random.js";

/** Percentiles of one duration, in milliseconds (nearest rank: the smallest value with at least p% of the values at or below it). */
export interface LatencyPercentiles {
  /** Values seen. */
  count: number;
  /** Median; null when no value was seen. */
  p50: number | null;
  /** 95th percentile; null when no value was seen. */
  p95: number | null;
  /** 99th percentile; null when no value was seen. */
  p99: number | null;
  /** Largest value seen (exact even when the percentiles are sampled). */
  max: number | null;
  /** True when more than `capacity` values were seen and the percentiles come from a uniform sample of `capacity` of them. */
  approximate: boolean;
}

/** Values kept exactly before sampling starts: 8 MB of doubles per duration. */
export const DEFAULT_SAMPLE_CAPACITY = 1_000_000;

/** The nearest-rank percentile of sorted values. */
export function nearestRank(sorted: Float64Array, p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

/**
 * Collects durations: every value up to `capacity` (exact percentiles), then a uniform
 * reservoir of `capacity` of them (Vitter's algorithm R, seeded), so memory never grows past
 * `capacity` doubles whatever the size of the file.
 */
export class LatencySample {
  #values = new Float64Array(1024);
  #kept = 0;
  #seen = 0;
  #max = Number.NEGATIVE_INFINITY;
  readonly #random = mulberry32(0x5eed);

  /** @param capacity values kept at most. @default DEFAULT_SAMPLE_CAPACITY */
  constructor(private readonly capacity: number = DEFAULT_SAMPLE_CAPACITY) {}

  /** Adds one value; anything but a finite number at least 0 is ignored. */
  add(value: unknown): void {
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) return;
    this.#seen++;
    if (value > this.#max) this.#max = value;
    if (this.#kept < this.capacity) {
      if (this.#kept === this.#values.length) {
        const grown = new Float64Array(Math.min(this.capacity, this.#values.length * 2));
        grown.set(this.#values);
        this.#values = grown;
      }
      this.#values[this.#kept++] = value;
      return;
    }
    const slot = Math.floor(this.#random() * this.#seen);
    if (slot < this.capacity) this.#values[slot] = value;
  }

  /** The percentiles of what was added. */
  percentiles(): LatencyPercentiles {
    const sorted = this.#values.slice(0, this.#kept).sort();
    return {
      count: this.#seen,
      p50: nearestRank(sorted, 50),
      p95: nearestRank(sorted, 95),
      p99: nearestRank(sorted, 99),
      max: this.#seen > 0 ? this.#max : null,
      approximate: this.#seen > this.#kept,
    };
  }
}
