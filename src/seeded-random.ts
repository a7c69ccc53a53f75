/** The one seeded pseudo-random generator of the package: embedder fitting, calibration, sampling and significance tests. */

/**
 * A seeded 32-bit pseudo-random generator (mulberry32): one seed gives the same
 * sequence on every platform, which keeps model fitting bit-for-bit reproducible.
 * @param seed Any number; only its low 32 bits are used.
 * @returns A function yielding floats in [0, 1).
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
