import type { Candidate, EvidenceBlock, EvidenceLayer } from "../types.js";
import type { LayeredEvidence } from "./state.js";

/** Weight of L0 (BM25) in the fused score; L1 gets the rest. Chosen on the SciFact train split (0.5-1.0 swept). @default 0.8 */
export const DEFAULT_L0_WEIGHT = 0.8;

function minMax(values: readonly number[]): (value: number) => number {
  const min = Math.min(...values);
  const range = Math.max(...values) - min;
  return (value) => (range > 0 ? (value - min) / range : 1);
}

/**
 * Turns one layer's candidates into evidence, each score min-max normalised within the list so
 * that BM25 scores and cosine similarities can be weighed against each other.
 */
export function candidatesToEvidence(candidates: readonly Candidate[], layer: "L0" | "L1"): LayeredEvidence[] {
  const normalise = minMax(candidates.map((candidate) => candidate.score));
  return candidates.map(({ chunk, score, hitReasons, coverage }) => ({
    source: chunk.source,
    ...(chunk.title !== undefined ? { title: chunk.title } : {}),
    ...(chunk.breadcrumb.length > 0 ? { breadcrumb: chunk.breadcrumb } : {}),
    ...(chunk.meta.domain !== undefined ? { domain: chunk.meta.domain } : {}),
    retrievalLayer: layer,
    content: chunk.content,
    hitReasons,
    layerScores: { [layer]: normalise(score) },
    ...(coverage !== undefined ? { coverage } : {}),
    ...(layer === "L1" ? { similarity: score } : {}),
  }));
}

function mergeTwo(a: LayeredEvidence, b: LayeredEvidence): LayeredEvidence {
  const layerScores = { ...a.layerScores, ...b.layerScores };
  const layer: EvidenceLayer =
    layerScores.L0 !== undefined && layerScores.L1 !== undefined ? "L0+L1" : a.retrievalLayer;
  return {
    ...a,
    ...b,
    retrievalLayer: layer,
    hitReasons: [...new Set([...a.hitReasons, ...b.hitReasons])],
    layerScores,
    coverage: a.coverage ?? b.coverage,
    similarity: a.similarity ?? b.similarity,
  };
}

/**
 * Dedupes evidence by source: blocks of the same source become one, layer `L0+L1` when both
 * layers found it, hit reasons united. Scores fuse as a weighted sum over the layers that
 * produced evidence at all, so L0-only evidence still scores up to 1. Ranked by fused score,
 * ties by source, cut to `limit`.
 */
export function dedupeEvidence(
  blocks: readonly LayeredEvidence[],
  options: { l0Weight?: number; limit: number },
): LayeredEvidence[] {
  const l0Weight = options.l0Weight ?? DEFAULT_L0_WEIGHT;
  const bySource = new Map<string, LayeredEvidence>();
  for (const block of blocks) {
    const seen = bySource.get(block.source);
    bySource.set(block.source, seen ? mergeTwo(seen, block) : block);
  }
  const hasL0 = blocks.some((block) => block.layerScores.L0 !== undefined);
  const hasL1 = blocks.some((block) => block.layerScores.L1 !== undefined);
  const w0 = hasL0 ? l0Weight : 0;
  const w1 = hasL1 ? 1 - l0Weight : 0;
  const total = w0 + w1 > 0 ? w0 + w1 : 1;
  const fused = [...bySource.values()].map((block) => ({
    ...block,
    score: (w0 * (block.layerScores.L0 ?? 0) + w1 * (block.layerScores.L1 ?? 0)) / total,
  }));
  fused.sort((a, b) => b.score - a.score || (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  return fused.slice(0, options.limit);
}

const round4 = (value: number) => Math.round(value * 1e4) / 1e4;

/** The public shape of a block: layer scores dropped, score, coverage and similarity rounded. */
export function toEvidenceBlock(block: LayeredEvidence): EvidenceBlock {
  const { layerScores: _layerScores, coverage, similarity, score, ...rest } = block;
  return {
    ...rest,
    ...(score !== undefined ? { score: round4(score) } : {}),
    ...(coverage !== undefined ? { termCoverage: round4(coverage) } : {}),
    ...(similarity !== undefined ? { similarity: round4(similarity) } : {}),
  };
}
