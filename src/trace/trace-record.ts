import { errorMessage } from "../errors.js";
import { capText, sliceWhole } from "../text/cap-text.js";
import type { EvidenceBlock, LookupResult, LookupTimings } from "../types.js";
import { boundRecord } from "./bound-record.js";
import { CONTENT_PREVIEW_CHARS } from "./trace-limits.js";

export { CONTENT_PREVIEW_CHARS };

/**
 * One `tool_invocation` line of the JSONL trace (snake_case, as persisted). Its line is at most
 * `MAX_TRACE_LINE_BYTES` long: long fields are cut to `TRACE_FIELD_LIMITS` and `truncated` names them.
 */
export interface ToolInvocationRecord {
  type: "tool_invocation";
  invocation_id: string;
  tool_name: string;
  started_at: string;
  duration_ms: number;
  /**
   * Milliseconds per stage (see `LookupTimings`), rounded to 0.01 ms: `total` runs to the moment
   * the record is made, so the trace append itself is in no line. Absent in error records (and
   * when the context has no timings).
   */
  durations_ms?: { l0: number; l1: number; merge: number; total: number };
  status: "success" | "error";
  input: { query: string; domain: string | null; limit: number };
  corpus_fingerprint: string | null;
  error?: string;
  retrieval_details: {
    retrieval_layer: string;
    /**
     * The hints (`L0Hints`): `domains` is every domain L0 matched a file of; `domain_evidence`
     * (`L0Hints.domainEvidence`, empty when the hints had none) how many files and how strongly.
     */
    l0: { matched_titles: string[]; matched_keywords: string[]; domains: string[]; entities: string[]; domain_evidence: { domain: string; strength: number; files: number }[] };
    l1: { status: string; domain_filter: string | null; candidate_count: number; error?: string };
    fallback_reason: string | null;
    relevance: { level: string; semantic_support: boolean };
    candidate_count: number;
    evidence_count: number;
    /** True when some block's content was cut to the evidence caps (the artifact's `contentTruncated`). */
    content_truncated: boolean;
    evidence: { source: string; title: string | null; retrieval_layer: string; score: number | null; hit_reasons: string[]; content_preview: string }[];
  } | null;
  /** Fields that were cut to fit the bound (`input.query`, `retrieval_details.evidence[].title`...); absent when none was. */
  truncated?: string[];
}

/** Characters of input read per character of preview before the whole text is collapsed. */
const PREVIEW_READ_AHEAD = 4;

/**
 * Every whitespace run but a lone space: replacing only these by one space gives what
 * `replace(/\s+/g, " ")` gives, without rewriting each single space of prose.
 */
const WHITESPACE_TO_COLLAPSE = /\s{2,}|[^\S ]/g;

const collapse = (text: string) => text.replace(WHITESPACE_TO_COLLAPSE, " ").trim();

/**
 * Collapses whitespace runs to one space and cuts the text to at most `max` characters, marking
 * the cut with an ellipsis; never splits a surrogate pair. Only the head of a long text is
 * collapsed when it already fills the preview (the cut then lands at the same place).
 */
export function preview(text: string, max = CONTENT_PREVIEW_CHARS): string {
  const readAhead = max * PREVIEW_READ_AHEAD;
  if (text.length > readAhead) {
    const head = collapse(sliceWhole(text, readAhead));
    if (head.length > max) return capText(head, max);
  }
  return capText(collapse(text), max);
}

/** What the trace needs besides the lookup result. */
export interface TraceContext {
  toolName: string;
  startedAt: number;
  durationMs: number;
  input: { query: string; domain: string | null; limit: number };
  corpusFingerprint: string | null;
  l1CandidateCount: number;
  l1Error: string | null;
  /** Durations of the stages so far, `totalMs` up to the making of the record; the record has no `durations_ms` without them. */
  timings?: Pick<LookupTimings, "l0Ms" | "l1Ms" | "mergeMs" | "totalMs">;
}

/** A duration as the trace keeps it: rounded to 0.01 ms, 0 for anything not a finite positive number. */
function traceMs(ms: number): number {
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms * 100) / 100 : 0;
}

function traceDurations(timings: NonNullable<TraceContext["timings"]>): NonNullable<ToolInvocationRecord["durations_ms"]> {
  return { l0: traceMs(timings.l0Ms), l1: traceMs(timings.l1Ms), merge: traceMs(timings.mergeMs), total: traceMs(timings.totalMs) };
}

function traceEvidence(block: EvidenceBlock): NonNullable<ToolInvocationRecord["retrieval_details"]>["evidence"][number] {
  return {
    source: block.source,
    title: block.title ?? null,
    retrieval_layer: block.retrievalLayer,
    score: block.score ?? null,
    hit_reasons: block.hitReasons,
    content_preview: preview(block.content),
  };
}

/** Projects a finished lookup onto its trace line, cut to the bound (pure). */
export function toTraceRecord(result: LookupResult, context: TraceContext): ToolInvocationRecord {
  return boundRecord<ToolInvocationRecord>({
    type: "tool_invocation",
    invocation_id: result.invocationId,
    tool_name: context.toolName,
    started_at: new Date(context.startedAt).toISOString(),
    duration_ms: Math.round(context.durationMs * 100) / 100,
    ...(context.timings ? { durations_ms: traceDurations(context.timings) } : {}),
    status: "success",
    input: context.input,
    corpus_fingerprint: context.corpusFingerprint,
    retrieval_details: {
      retrieval_layer: result.retrievalLayer,
      l0: {
        matched_titles: result.hints.titles,
        matched_keywords: result.hints.keywords,
        domains: result.hints.domains,
        entities: result.hints.entities,
        domain_evidence: result.hints.domainEvidence ?? [],
      },
      l1: {
        status: result.l1Status,
        domain_filter: result.domainFilter,
        candidate_count: context.l1CandidateCount,
        ...(context.l1Error !== null ? { error: context.l1Error } : {}),
      },
      fallback_reason: result.fallbackReason,
      relevance: { level: result.relevance.level, semantic_support: result.relevance.semanticSupport },
      candidate_count: result.candidateCount,
      evidence_count: result.evidenceCount,
      content_truncated: result.contentTruncated,
      evidence: result.evidence.map(traceEvidence),
    },
  });
}

/** The trace line of a lookup that threw before it finished, cut to the bound (pure). */
export function toErrorRecord(invocationId: string, context: Omit<TraceContext, "l1CandidateCount" | "l1Error" | "timings">, error: unknown): ToolInvocationRecord {
  return boundRecord<ToolInvocationRecord>({
    type: "tool_invocation",
    invocation_id: invocationId,
    tool_name: context.toolName,
    started_at: new Date(context.startedAt).toISOString(),
    duration_ms: Math.round(context.durationMs * 100) / 100,
    status: "error",
    input: context.input,
    corpus_fingerprint: context.corpusFingerprint,
    error: errorMessage(error),
    retrieval_details: null,
  });
}
