import { errorMessage } from "../errors.js";
import { capText } from "../text/cap-text.js";
import type { LookupResult } from "../types.js";
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
  status: "success" | "error";
  input: { query: string; domain: string | null; limit: number };
  corpus_fingerprint: string | null;
  error?: string;
  retrieval_details: {
    retrieval_layer: string;
    l0: { matched_titles: string[]; matched_keywords: string[]; domains: string[]; entities: string[] };
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

/** Cuts text to at most `max` characters, marking the cut with an ellipsis; never splits a surrogate pair. */
export function preview(text: string, max = CONTENT_PREVIEW_CHARS): string {
  return capText(text.replace(/\s+/g, " ").trim(), max);
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
}

/** Projects a finished lookup onto its trace line, cut to the bound (pure). */
export function toTraceRecord(result: LookupResult, context: TraceContext): ToolInvocationRecord {
  return boundRecord<ToolInvocationRecord>({
    type: "tool_invocation",
    invocation_id: result.invocationId,
    tool_name: context.toolName,
    started_at: new Date(context.startedAt).toISOString(),
    duration_ms: Math.round(context.durationMs * 100) / 100,
    status: "success",
    input: context.input,
    corpus_fingerprint: context.corpusFingerprint,
    retrieval_details: {
      retrieval_layer: result.retrievalLayer,
      l0: { matched_titles: result.hints.titles, matched_keywords: result.hints.keywords, domains: result.hints.domains, entities: result.hints.entities },
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
      evidence: result.evidence.map((block) => ({
        source: block.source,
        title: block.title ?? null,
        retrieval_layer: block.retrievalLayer,
        score: block.score ?? null,
        hit_reasons: block.hitReasons,
        content_preview: preview(block.content),
      })),
    },
  });
}

/** The trace line of a lookup that threw before it finished, cut to the bound (pure). */
export function toErrorRecord(invocationId: string, context: Omit<TraceContext, "l1CandidateCount" | "l1Error">, error: unknown): ToolInvocationRecord {
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
