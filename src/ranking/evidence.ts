import type { Candidate, EvidenceBlock, EvidenceLayer } from "../types.js";
import { fuse, fusionWeights, minMaxNormaliser } from "./fusion.js";

export { DEFAULT_L0_WEIGHT } from "./fusion.js";

/** Evidence before the final merge: a block plus what each layer thought of it. */
export interface LayeredEvidence extends EvidenceBlock {
  /** Normalised score per layer, in [0, 1]. */
  layerScores: { L0?: number; L1?: number };
  /** IDF-weighted share of the query's terms in the block, when a layer measured it. */
  coverage?: number;
  /** Raw cosine similarity, when L1 saw it. */
  similarity?: number;
}

/**
 * Turns one layer's candidates into evidence, each score min-max normalised within the list so
 * that BM25 scores and cosine similarities can be weighed against each other.
 */
export function candidatesToEvidence(candidates: readonly Candidate[], layer: "L0" | "L1"): LayeredEvidence[] {
  const normalise = minMaxNormaliser(candidates.map((candidate) => candidate.score));
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
  const bySource = new Map<string, LayeredEvidence>();
  for (const block of blocks) {
    const seen = bySource.get(block.source);
    bySource.set(block.source, seen ? mergeTwo(seen, block) : block);
  }
  const weights = fusionWeights(
    blocks.some((block) => block.layerScores.L0 !== undefined),
    blocks.some((block) => block.layerScores.L1 !== undefined),
    options.l0Weight,
  );
  const fused = [...bySource.values()].map((block) => ({
    ...block,
    score: fuse(weights, block.layerScores.L0, block.layerScores.L1),
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
