import { candidatesToEvidence } from "../evidence.js";
import { fallbackReasonFor } from "../routes.js";
import type { RetrievalStateType, RetrievalStateUpdate } from "../state.js";

/** Both layers answered: evidence from L0 and L1 candidates, merged later by source. */
export function mergeEvidenceNode(state: RetrievalStateType): RetrievalStateUpdate {
  return { evidence: [...candidatesToEvidence(state.l0Candidates, "L0"), ...candidatesToEvidence(state.l1Candidates, "L1")] };
}

/** L1 did not answer: evidence from L0 alone, with the reason recorded. */
export function l0FallbackNode(state: RetrievalStateType): RetrievalStateUpdate {
  return { evidence: candidatesToEvidence(state.l0Candidates, "L0"), fallbackReason: fallbackReasonFor(state.l1Status) };
}
