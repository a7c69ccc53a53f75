import type { TraceSink } from "../../trace/jsonl-trace-sink.js";
import { toTraceRecord, type ToolInvocationRecord } from "../../trace/trace-record.js";
import type { LookupTimings } from "../../types.js";
import type { EvidenceCaps } from "../bound-evidence.js";
import { clock, elapsedMs } from "../elapsed.js";
import { dedupeEvidence } from "../../ranking/evidence.js";
import { buildLookupResult } from "../lookup-result.js";
import type { RelevanceThresholds } from "../../ranking/relevance.js";
import type { RetrievalStateType, RetrievalStateUpdate } from "../state.js";

/** Collaborators and settings of the final node. */
export interface DedupeAndTraceNodeOptions {
  /** Weight of L0 in the fused score. */
  l0Weight: number;
  /** Where the trace line goes; null turns tracing off. */
  traceSink: TraceSink | null;
  /** Name recorded in the trace. */
  toolName: string;
  /** Fingerprint of the indexed corpus and settings, recorded in the trace. */
  corpusFingerprint: string | null;
  /** The committed index generation the lookups run on, recorded in the trace. @default null */
  indexGeneration?: string | null;
  /** Thresholds of the relevance assessment. @default RELEVANCE_THRESHOLDS */
  relevance?: RelevanceThresholds;
  /** Caps on the returned corpus text. @default RETRIEVAL_DEFAULTS.evidence */
  evidence?: EvidenceCaps;
  /** Clock in epoch milliseconds, for the trace's `duration_ms`. @default Date.now */
  now?: () => number;
}

/** Appends without failing the lookup: an injected sink may break its never-reject contract, even by throwing. */
async function appendTrace(sink: TraceSink, record: ToolInvocationRecord): Promise<boolean> {
  try {
    return await sink.append(record);
  } catch {
    return false;
  }
}

/**
 * Dedupes and ranks the evidence, assesses relevance and appends the trace line. The result
 * carries the stage durations (`timings`); the trace line carries them up to its own making
 * (its `durations_ms` has no trace stage: the append is in `timings.traceMs` only), and the
 * run ids of `state.runIdentity`.
 */
export function createDedupeAndTraceNode({
  l0Weight,
  traceSink,
  toolName,
  corpusFingerprint,
  indexGeneration = null,
  relevance,
  evidence,
  now = Date.now,
}: DedupeAndTraceNodeOptions) {
  return async function dedupeAndTrace(state: RetrievalStateType): Promise<RetrievalStateUpdate> {
    const started = clock();
    const merged = dedupeEvidence(state.evidence, { l0Weight, limit: state.limit });
    const draft = buildLookupResult(state, merged, false, { relevance, evidence });
    const traceStarted = clock();
    const stages = {
      l0Ms: state.timings.l0Ms ?? 0,
      embedMs: state.timings.embedMs ?? 0,
      l1Ms: state.timings.l1Ms ?? 0,
      mergeMs: (state.timings.mergeMs ?? 0) + elapsedMs(started, traceStarted),
    };
    if (traceSink === null) {
      const timings: LookupTimings = { ...stages, traceMs: 0, totalMs: elapsedMs(state.runStartedAt, traceStarted) };
      return { result: { ...draft, timings }, timings };
    }
    const record = toTraceRecord(draft, {
      toolName,
      startedAt: state.startedAt,
      durationMs: now() - state.startedAt,
      input: { query: state.query, domain: state.domain, limit: state.limit },
      corpusFingerprint,
      indexGeneration,
      l1CandidateCount: state.l1Candidates.length,
      l1Error: state.l1Error,
      timings: { ...stages, totalMs: elapsedMs(state.runStartedAt, traceStarted) },
      identity: state.runIdentity,
      access: state.scope,
    });
    const traceWritten = await appendTrace(traceSink, record);
    const finished = clock();
    const timings: LookupTimings = {
      ...stages,
      traceMs: elapsedMs(traceStarted, finished),
      totalMs: elapsedMs(state.runStartedAt, finished),
    };
    return { result: { ...draft, traceWritten, timings }, timings };
  };
}
