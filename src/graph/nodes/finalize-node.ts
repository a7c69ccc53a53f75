import type { TraceSink } from "../../trace/jsonl-trace-sink.js";
import type { EvidenceCaps } from "../bound-evidence.js";
import { toTraceRecord } from "../../trace/trace-record.js";
import { mergeEvidence } from "../evidence.js";
import { buildLookupResult } from "../lookup-result.js";
import type { RelevanceThresholds } from "../relevance.js";
import type { RetrievalStateType, RetrievalStateUpdate } from "../state.js";

/** Collaborators and settings of the final node. */
export interface FinalizeNodeOptions {
  /** Weight of L0 in the fused score. */
  l0Weight: number;
  /** Where the trace line goes; null turns tracing off. */
  traceSink: TraceSink | null;
  /** Name recorded in the trace. */
  toolName: string;
  /** Fingerprint of the indexed corpus and settings, recorded in the trace. */
  corpusFingerprint: string | null;
  /** Thresholds of the relevance assessment. @default RELEVANCE_THRESHOLDS */
  relevance?: RelevanceThresholds;
  /** Caps on the returned corpus text. @default RETRIEVAL_DEFAULTS.evidence */
  evidence?: EvidenceCaps;
  /** Clock in epoch milliseconds. @default Date.now */
  now?: () => number;
}

/** Dedupes and ranks the evidence, assesses relevance and appends the trace line. */
export function createFinalizeNode({ l0Weight, traceSink, toolName, corpusFingerprint, relevance, evidence, now = Date.now }: FinalizeNodeOptions) {
  return async function finalize(state: RetrievalStateType): Promise<RetrievalStateUpdate> {
    const merged = mergeEvidence(state.evidence, { l0Weight, limit: state.limit });
    const draft = buildLookupResult(state, merged, false, { relevance, evidence });
    if (traceSink === null) return { result: draft };
    const record = toTraceRecord(draft, {
      toolName,
      startedAt: state.startedAt,
      durationMs: now() - state.startedAt,
      input: { query: state.query, domain: state.domain, limit: state.limit },
      corpusFingerprint,
      l1CandidateCount: state.l1Candidates.length,
      l1Error: state.l1Error,
    });
    // An injected sink may break its never-reject contract; a trace failure must not fail the lookup.
    const traceWritten = await Promise.resolve()
      .then(() => traceSink.append(record))
      .catch(() => false);
    return { result: { ...draft, traceWritten } };
  };
}
