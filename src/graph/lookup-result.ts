import type { LookupResult, RetrievalLayer } from "../types.js";
import { boundEvidence, boundHints, type EvidenceCaps } from "./bound-evidence.js";
import { toEvidenceBlock } from "../ranking/evidence.js";
import { assessRelevance, RELEVANCE_THRESHOLDS, type RelevanceThresholds } from "../ranking/relevance.js";
import type { LayeredEvidence } from "../ranking/evidence.js";
import type { RetrievalStateType } from "./state.js";

/** `L0+L1` when both layers contributed candidates, `L0` or `L1` when one did, `none` otherwise. */
export function retrievalLayerOf(
  state: Pick<RetrievalStateType, "l0Candidates" | "l1Candidates" | "l1Status">,
): RetrievalLayer {
  const l0 = state.l0Candidates.length > 0;
  const l1 = state.l1Status === "ok" && state.l1Candidates.length > 0;
  return l0 && l1 ? "L0+L1" : l0 ? "L0" : l1 ? "L1" : "none";
}

/** Caps applied when none are given: large enough never to cut a sane section. */
const UNCAPPED: EvidenceCaps = { maxBlockChars: Number.MAX_SAFE_INTEGER, maxTotalChars: Number.MAX_SAFE_INTEGER };

/**
 * Assembles the artifact of a lookup from the final state and the merged evidence (pure):
 * relevance judged on the full evidence, then text fields bounded and contents capped.
 */
export function buildLookupResult(
  state: RetrievalStateType,
  merged: readonly LayeredEvidence[],
  traceWritten: boolean,
  settings: { relevance?: RelevanceThresholds; evidence?: EvidenceCaps } = {},
): LookupResult {
  const layer = retrievalLayerOf(state);
  const used = [...state.l0Candidates, ...(layer === "L1" || layer === "L0+L1" ? state.l1Candidates : [])];
  const { blocks: evidence, truncated } = boundEvidence(merged.map(toEvidenceBlock), settings.evidence ?? UNCAPPED);
  return {
    invocationId: state.invocationId,
    query: state.query,
    retrievalLayer: layer,
    hints: boundHints(state.hints),
    domainFilter: state.domainFilter,
    l1Status: state.l1Status ?? "disabled",
    fallbackReason: state.fallbackReason,
    relevance: assessRelevance(merged, state.l1Status, settings.relevance ?? RELEVANCE_THRESHOLDS),
    evidence,
    primary: evidence[0] ?? null,
    supplements: evidence.slice(1),
    candidateCount: new Set(used.map((candidate) => candidate.chunk.source)).size,
    evidenceCount: evidence.length,
    contentTruncated: truncated,
    traceWritten,
    access: state.scope,
  };
}
