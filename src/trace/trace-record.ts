import type { AppliedScope } from "../access/access-scope.js";
import { errorMessage, LookupKnowledgeError } from "../errors.js";
import { capText, sliceWhole } from "../text/cap-text.js";
import type { EvidenceBlock, LookupResult, LookupTimings } from "../types.js";
import { boundRecord } from "./bound-record.js";
import { NO_RUN_IDENTITY, type RunIdentity } from "./run-identity.js";
import type { ToolInvocationRecord } from "./tool-invocation-record.js";
import { CONTENT_PREVIEW_CHARS } from "./trace-limits.js";

export { CONTENT_PREVIEW_CHARS, type ToolInvocationRecord };

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
  /** The committed index generation the lookup ran on (`KnowledgeBase.generation`); null for a base not loaded from a folder. */
  indexGeneration?: string | null;
  l1CandidateCount: number;
  l1Error: string | null;
  /** Durations of the stages so far, `totalMs` up to the making of the record; the record has no `durations_ms` without them. */
  timings?: Pick<LookupTimings, "l0Ms" | "l1Ms" | "mergeMs" | "totalMs"> & { embedMs?: number };
  /** The run the lookup belongs to; every id null when not given. */
  identity?: RunIdentity;
  /** The access scope the lookup ran under; null (or absent) for an unscoped lookup or a scope that could not be established. */
  access?: AppliedScope | null;
}

/** The record's `access` field. */
function accessField(scope: AppliedScope | null | undefined): ToolInvocationRecord["access"] {
  return scope == null ? null : { groups: [...scope.groups], group_count: scope.groups.length, digest: scope.digest };
}

/** A duration as the trace keeps it: rounded to 0.01 ms, 0 for anything not a finite positive number. */
function traceMs(ms: number): number {
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms * 100) / 100 : 0;
}

function traceDurations(
  timings: NonNullable<TraceContext["timings"]>,
): NonNullable<ToolInvocationRecord["durations_ms"]> {
  return {
    l0: traceMs(timings.l0Ms),
    embed: traceMs(timings.embedMs ?? 0),
    l1: traceMs(timings.l1Ms),
    merge: traceMs(timings.mergeMs),
    total: traceMs(timings.totalMs),
  };
}

/** The record's run ids (snake_case), null for each one unknown. */
function identityFields(
  identity: RunIdentity = NO_RUN_IDENTITY,
): Pick<ToolInvocationRecord, "tool_call_id" | "run_id" | "thread_id"> {
  return { tool_call_id: identity.toolCallId, run_id: identity.runId, thread_id: identity.threadId };
}

/** The class of a failure, low-cardinality as OpenTelemetry's `error.type` wants: our error code, else the error's name. */
export function errorTypeOf(error: unknown): string {
  if (error instanceof LookupKnowledgeError) return error.code;
  if (error instanceof Error && error.name.length > 0) return error.name;
  return "_OTHER";
}

function traceEvidence(
  block: EvidenceBlock,
): NonNullable<ToolInvocationRecord["retrieval_details"]>["evidence"][number] {
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
    ...identityFields(context.identity),
    tool_name: context.toolName,
    started_at: new Date(context.startedAt).toISOString(),
    duration_ms: Math.round(context.durationMs * 100) / 100,
    ...(context.timings ? { durations_ms: traceDurations(context.timings) } : {}),
    status: "success",
    input: context.input,
    corpus_fingerprint: context.corpusFingerprint,
    index_generation: context.indexGeneration ?? null,
    access: accessField(context.access),
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
export function toErrorRecord(
  invocationId: string,
  context: Omit<TraceContext, "l1CandidateCount" | "l1Error" | "timings">,
  error: unknown,
  status: "error" | "refused" = "error",
): ToolInvocationRecord {
  return boundRecord<ToolInvocationRecord>({
    type: "tool_invocation",
    invocation_id: invocationId,
    ...identityFields(context.identity),
    tool_name: context.toolName,
    started_at: new Date(context.startedAt).toISOString(),
    duration_ms: Math.round(context.durationMs * 100) / 100,
    status,
    input: context.input,
    corpus_fingerprint: context.corpusFingerprint,
    index_generation: context.indexGeneration ?? null,
    access: accessField(context.access),
    error: errorMessage(error),
    error_type: errorTypeOf(error),
    retrieval_details: null,
  });
}

/**
 * The trace line of a call its input schema refused before any lookup ran (`status: "refused"`),
 * cut to the same bound as every line (pure).
 */
export function toRefusalRecord(
  invocationId: string,
  context: Omit<TraceContext, "l1CandidateCount" | "l1Error" | "timings">,
  error: unknown,
): ToolInvocationRecord {
  return toErrorRecord(invocationId, context, error, "refused");
}
