import { clock, elapsedMs } from "../elapsed.js";
import { candidatesToEvidence } from "../../ranking/evidence.js";
import { fallbackReasonFor } from "../routes.js";
import type { RetrievalStateType, RetrievalStateUpdate } from "../state.js";

/** Both layers answered: evidence from L0 and L1 candidates, deduped by source in `dedupe_and_trace`. Its duration counts toward `timings.mergeMs`. */
export function collectEvidenceNode(state: RetrievalStateType): RetrievalStateUpdate {
  const started = clock();
  const evidence = [
    ...candidatesToEvidence(state.l0Candidates, "L0"),
    ...candidatesToEvidence(state.l1Candidates, "L1"),
  ];
  return { evidence, timings: { mergeMs: elapsedMs(started) } };
}

/** L1 did not answer: evidence from L0 alone, with the reason recorded. Its duration counts toward `timings.mergeMs`. */
export function l0FallbackNode(state: RetrievalStateType): RetrievalStateUpdate {
  const started = clock();
  const evidence = candidatesToEvidence(state.l0Candidates, "L0");
  return { evidence, fallbackReason: fallbackReasonFor(state.l1Status), timings: { mergeMs: elapsedMs(started) } };
}
