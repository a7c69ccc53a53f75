import type { PinnedSource } from "../graph/options.js";

/**
 * Counts the lookups running on each generation, so that a generation is referenced only while
 * it is current or a lookup still runs on it (then the garbage collector frees it).
 */
export class GenerationLeases<T> {
  readonly #held = new Map<T, number>();

  /** Pins `generation` for one lookup; `release` is idempotent. */
  take(generation: T): PinnedSource<T> {
    this.#held.set(generation, (this.#held.get(generation) ?? 0) + 1);
    let released = false;
    return {
      source: generation,
      release: () => {
        if (released) return;
        released = true;
        const left = (this.#held.get(generation) ?? 1) - 1;
        if (left > 0) this.#held.set(generation, left);
        else this.#held.delete(generation);
      },
    };
  }

  /** How many generations other than `current` lookups still hold. */
  heldExcept(current: T): number {
    let count = 0;
    for (const generation of this.#held.keys()) if (generation !== current) count++;
    return count;
  }
}
