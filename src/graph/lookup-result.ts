import type { LookupResult, RetrievalLayer } from "../types.js";
import { toEvidenceBlock } from "./evidence.js";
import { assessRelevance, RELEVANCE_THRESHOLDS, type RelevanceThresholds } from "./relevance.js";
import type { LayeredEvidence, RetrievalStateType } from "./state.js";

/** `L0+L1` when both layers contributed candidates, `L0` or `L1` when one did, `none` otherwise. */
export function retrievalLayerOf(state: Pick<RetrievalStateType, "l0Candidates" | "l1Candidates" | "l1Status">): RetrievalLayer {
  const l0 = state.l0Candidates.length > 0;
  const l1 = state.l1Status === "ok" && state.l1Candidates.length > 0;
  return l0 && l1 ? "L0+L1" : l0 ? "L0" : l1 ? "L1" : "none";
}

/** Assembles the artifact of a lookup from the final state and the merged evidence (pure). */
export function buildLookupResult(
  state: RetrievalStateType,
  merged: readonly LayeredEvidence[],
  traceWritten: boolean,
  thresholds: RelevanceThresholds = RELEVANCE_THRESHOLDS,
): LookupResult {
  const layer = retrievalLayerOf(state);
  const used = [...state.l0Candidates, ...(layer === "L1" || layer === "L0+L1" ? state.l1Candidates : [])];
  const evidence = merged.map(toEvidenceBlock);
  return {
    invocationId: state.invocationId,
    query: state.query,
    retrievalLayer: layer,
    hints: state.hints,
    domainFilter: state.domainFilter,
    l1Status: state.l1Status ?? "disabled",
    fallbackReason: state.fallbackReason,
    relevance: assessRelevance(merged, state.l1Status, thresholds),
    evidence,
    primary: evidence[0] ?? null,
    supplements: evidence.slice(1),
    candidateCount: new Set(used.map((candidate) => candidate.chunk.source)).size,
    evidenceCount: evidence.length,
    traceWritten,
  };
}
