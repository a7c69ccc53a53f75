/** Counting distinct keys (queries) in bounded memory. */

/** One key and how often it was seen. */
export interface KeyCount {
  key: string;
  count: number;
}

/** Distinct keys kept exactly before the rarest are dropped. */
export const DEFAULT_COUNTER_CAPACITY = 10_000;

/**
 * Counts keys exactly while there are at most `capacity` distinct ones. Past that, the rarest
 * keys are dropped (every key at the lowest count, until at most half the capacity is left):
 * keys seen often keep their counts (less what they had when dropped, if they ever were), and
 * `approximate` says it happened. Memory stays at `capacity` keys whatever the input.
 */
export class BoundedCounter {
  readonly #counts = new Map<string, number>();
  #approximate = false;

  /** @param capacity distinct keys kept at most. @default DEFAULT_COUNTER_CAPACITY */
  constructor(private readonly capacity: number = DEFAULT_COUNTER_CAPACITY) {}

  /** Counts one occurrence of `key`. */
  add(key: string): void {
    const count = this.#counts.get(key);
    if (count !== undefined) {
      this.#counts.set(key, count + 1);
      return;
    }
    if (this.#counts.size >= this.capacity) this.#prune();
    this.#counts.set(key, 1);
  }

  #prune(): void {
    this.#approximate = true;
    const target = Math.floor(this.capacity / 2);
    let threshold = Math.min(...this.#counts.values());
    while (this.#counts.size > target) {
      for (const [key, count] of this.#counts) if (count <= threshold) this.#counts.delete(key);
      threshold++;
    }
  }

  /** True once some key was dropped. */
  get approximate(): boolean {
    return this.#approximate;
  }

  /** The `n` most frequent keys, by count then key. */
  top(n: number): KeyCount[] {
    return [...this.#counts]
      .map(([key, count]) => ({ key, count }))
      .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .slice(0, n);
  }
}
