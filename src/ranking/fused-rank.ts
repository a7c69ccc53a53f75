import { fuse, fusionWeights, minMaxNormaliser } from "./fusion.js";

/** One layer's answer to a pseudo-query: the other chunks' scores, best first, and the held-out target's. */
export interface LayerScores {
  /** `[chunk, score]` of the best other chunks, best first (the target's own chunk left out). */
  others: readonly (readonly [number, number])[];
  /** The target's score with its sentence held out; undefined when the layer did not run. */
  target: number | undefined;
}

/** Both layers' answers to one pseudo-query; `l1` is null without a dense layer. */
export interface PseudoQueryScores {
  l0: LayerScores;
  l1: LayerScores | null;
}

/** The target's pseudo chunk number in a ranking. */
const TARGET = -1;

/** The layer's list as the tool would see it: the target joins the others if it scores into the top `k`. */
function listOf(layer: LayerScores, k: number): (readonly [number, number])[] {
  const list = [...layer.others];
  if (layer.target !== undefined) list.push([TARGET, layer.target]);
  list.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return list.slice(0, k);
}

/** Min-max normalised scores of one list, as `candidatesToEvidence` normalises them. */
function normalised(list: readonly (readonly [number, number])[]): Map<number, number> {
  const normalise = minMaxNormaliser(list.map(([, score]) => score));
  return new Map(list.map(([chunk, score]) => [chunk, normalise(score)]));
}

/**
 * Where the target lands (1 = first) when the two lists are fused as the tool fuses them: each
 * list cut to `k` and min-max normalised, then `l0Weight × L0 + (1 − l0Weight) × L1` over the
 * union, ties against the target. `Infinity` when neither list holds it.
 */
export function fusedRankOfTarget(scores: PseudoQueryScores, l0Weight: number, k: number): number {
  const l0 = normalised(listOf(scores.l0, k));
  const l1 = scores.l1 ? normalised(listOf(scores.l1, k)) : new Map<number, number>();
  if (!l0.has(TARGET) && !l1.has(TARGET)) return Infinity;
  const weights = fusionWeights(l0.size > 0, l1.size > 0, l0Weight);
  const fused = (chunk: number) => fuse(weights, l0.get(chunk), l1.get(chunk));
  const target = fused(TARGET);
  let rank = 1;
  for (const chunk of new Set([...l0.keys(), ...l1.keys()])) if (chunk !== TARGET && fused(chunk) >= target) rank++;
  return rank;
}

/**
 * The chunk that comes first when two lists (best first, already cut) are min-max normalised and
 * fused by weight; ties go to the smaller chunk number. Null when both are empty.
 */
export function fusedTop(
  l0List: readonly (readonly [number, number])[],
  l1List: readonly (readonly [number, number])[] | null,
  l0Weight: number,
): number | null {
  const l0 = normalised(l0List);
  const l1 = l1List ? normalised(l1List) : new Map<number, number>();
  const weights = fusionWeights(l0.size > 0, l1.size > 0, l0Weight);
  let best: number | null = null;
  let bestScore = -Infinity;
  for (const chunk of new Set([...l0.keys(), ...l1.keys()])) {
    const score = fuse(weights, l0.get(chunk), l1.get(chunk));
    if (score > bestScore || (score === bestScore && best !== null && chunk < best)) [best, bestScore] = [chunk, score];
  }
  return best;
}

/** Mean reciprocal rank at 10 of the targets at one weight. */
export function meanReciprocalRank(all: readonly PseudoQueryScores[], l0Weight: number, k: number): number {
  if (all.length === 0) return 0;
  let sum = 0;
  for (const scores of all) {
    const rank = fusedRankOfTarget(scores, l0Weight, k);
    if (rank <= 10) sum += 1 / rank;
  }
  return sum / all.length;
}
