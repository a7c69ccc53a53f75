/**
 * Score fusion of the two layers, shared by a lookup (`dedupeEvidence`) and calibration
 * (`fusedRankOfTarget`, `fusedTop`), so that calibration measures exactly what a lookup ranks by.
 */

/** Weight of L0 (BM25) in the fused score; L1 gets the rest. Chosen on the SciFact train split (0.5-1.0 swept). @default 0.8 */
export const DEFAULT_L0_WEIGHT = 0.8;

/** Min-max normalisation over `values`: the lowest maps to 0, the highest to 1; all equal map to 1. */
export function minMaxNormaliser(values: readonly number[]): (value: number) => number {
  let min = Infinity;
  let max = -Infinity;
  for (const value of values) {
    if (value < min) min = value;
    if (value > max) max = value;
  }
  const range = max - min;
  return (value) => (range > 0 ? (value - min) / range : 1);
}

/** The weights of the layers that produced a list at all: a layer with none gets 0, so the other still scores up to 1. */
export interface FusionWeights {
  readonly l0: number;
  readonly l1: number;
  readonly total: number;
}

/** Weights for `l0Weight × L0 + (1 − l0Weight) × L1` over the layers present. */
export function fusionWeights(hasL0: boolean, hasL1: boolean, l0Weight: number = DEFAULT_L0_WEIGHT): FusionWeights {
  const l0 = hasL0 ? l0Weight : 0;
  const l1 = hasL1 ? 1 - l0Weight : 0;
  return { l0, l1, total: l0 + l1 > 0 ? l0 + l1 : 1 };
}

/** The fused score of one item from its normalised layer scores (a missing one counts 0). */
export function fuse(weights: FusionWeights, l0: number | undefined, l1: number | undefined): number {
  return (weights.l0 * (l0 ?? 0) + weights.l1 * (l1 ?? 0)) / weights.total;
}
