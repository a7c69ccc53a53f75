import type { Candidate, Chunk, EvidenceBlock, EvidenceLayer } from "../types.js";
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
  return candidates.map(({ chunk, score, hitReasons, coverage }) =>
    withChunkContent(
      {
        source: chunk.source,
        ...(chunk.title !== undefined ? { title: chunk.title } : {}),
        ...(chunk.breadcrumb.length > 0 ? { breadcrumb: chunk.breadcrumb } : {}),
        ...(chunk.meta.domain !== undefined ? { domain: chunk.meta.domain } : {}),
        retrievalLayer: layer,
        hitReasons,
        layerScores: { [layer]: normalise(score) },
        ...(coverage !== undefined ? { coverage } : {}),
        ...(layer === "L1" ? { similarity: score } : {}),
      },
      chunk,
    ),
  );
}

/**
 * `block` with a `content` that reads the chunk's text when it is first asked for (and keeps it):
 * a loaded chunk's text is read from disk and inflated, and only the blocks a lookup returns need
 * it. The property is enumerable, so a spread or `JSON.stringify` (a checkpointer) reads it.
 */
function withChunkContent(block: Omit<LayeredEvidence, "content">, chunk: Chunk): LayeredEvidence {
  let text: string | undefined;
  return Object.defineProperty(block, "content", {
    get: () => (text ??= chunk.content),
    enumerable: true,
    configurable: true,
  }) as LayeredEvidence;
}

/** The fields of `block` but its content, copied without reading the content. */
function fieldsOf(block: LayeredEvidence): Omit<LayeredEvidence, "content"> {
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(block)) if (key !== "content") fields[key] = block[key as keyof LayeredEvidence];
  return fields as Omit<LayeredEvidence, "content">;
}

/** Two blocks of one source as one; the content (the same chunk's) stays unread. */
function mergeTwo(a: LayeredEvidence, b: LayeredEvidence): LayeredEvidence {
  const layerScores = { ...a.layerScores, ...b.layerScores };
  const layer: EvidenceLayer =
    layerScores.L0 !== undefined && layerScores.L1 !== undefined ? "L0+L1" : a.retrievalLayer;
  const content = Object.getOwnPropertyDescriptor(b, "content") ?? Object.getOwnPropertyDescriptor(a, "content");
  const merged = {
    ...fieldsOf(a),
    ...fieldsOf(b),
    retrievalLayer: layer,
    hitReasons: [...new Set([...a.hitReasons, ...b.hitReasons])],
    layerScores,
    coverage: a.coverage ?? b.coverage,
    similarity: a.similarity ?? b.similarity,
  };
  if (content !== undefined) Object.defineProperty(merged, "content", content);
  return merged as LayeredEvidence;
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
  // Ranked and cut before the blocks are copied: a copy reads the content, which only the kept need.
  const ranked = [...bySource.values()].map((block) => ({
    block,
    score: fuse(weights, block.layerScores.L0, block.layerScores.L1),
  }));
  ranked.sort(
    (a, b) => b.score - a.score || (a.block.source < b.block.source ? -1 : a.block.source > b.block.source ? 1 : 0),
  );
  return ranked.slice(0, options.limit).map(({ block, score }) => ({ ...block, score }));
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
