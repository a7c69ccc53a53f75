/** How long a trace line and each of its fields may be. */

/**
 * Hard bound on one trace line in UTF-8 bytes, newline included. Far below the 512 KiB above
 * which Node splits a write, so that one line is always one `write(2)` and lines appended by
 * several processes never interleave.
 */
export const MAX_TRACE_LINE_BYTES = 64 * 1024;

/** Characters of block content a trace line keeps: full content never goes into the trace. */
export const CONTENT_PREVIEW_CHARS = 200;

/** How much of one field a trace record keeps. */
export interface TraceFieldLimit {
  /** Characters of a string (each string item, for a list). */
  maxChars: number;
  /** Items of a list. */
  maxItems: number;
  /**
   * False for the fields that say what the record is (type, id, status...): they keep their cap
   * when a record that is still too long has its other fields shrunk.
   */
  shrinks: boolean;
}

/** The limit of every field not listed in {@link TRACE_FIELD_LIMITS}. */
export const DEFAULT_FIELD_LIMIT: Readonly<TraceFieldLimit> = Object.freeze({
  maxChars: 1_000,
  maxItems: 100,
  shrinks: true,
});

const IDENTITY: Readonly<Partial<TraceFieldLimit>> = Object.freeze({ maxChars: 128, shrinks: false });
const HINTS: Readonly<Partial<TraceFieldLimit>> = Object.freeze({ maxItems: 50, maxChars: 300 });

/**
 * Per-field limits of a trace record, by field name (the same name anywhere in the record).
 * Strings are cut with an ellipsis, lists keep their first items; a record that is still longer
 * than {@link MAX_TRACE_LINE_BYTES} has every shrinking limit scaled down until it fits.
 */
export const TRACE_FIELD_LIMITS: Readonly<Record<string, Partial<TraceFieldLimit>>> = Object.freeze({
  type: IDENTITY,
  invocation_id: IDENTITY,
  tool_call_id: IDENTITY,
  run_id: IDENTITY,
  thread_id: IDENTITY,
  error_type: IDENTITY,
  tool_name: IDENTITY,
  started_at: IDENTITY,
  status: IDENTITY,
  retrieval_layer: IDENTITY,
  fallback_reason: IDENTITY,
  level: IDENTITY,
  corpus_fingerprint: IDENTITY,
  index_generation: IDENTITY,
  digest: IDENTITY,
  // The scope's groups: the digest names the whole scope when a long list is cut.
  groups: { maxItems: 100, maxChars: 256 },
  query: { maxChars: 1_000 },
  domain: { maxChars: 200 },
  domain_filter: { maxChars: 200 },
  error: { maxChars: 2_000 },
  matched_titles: HINTS,
  matched_keywords: HINTS,
  domains: HINTS,
  entities: HINTS,
  // Its items' `domain` takes the `domain` limit; `strength` and `files` are numbers.
  domain_evidence: HINTS,
  evidence: { maxItems: 50 },
  source: { maxChars: 500 },
  title: { maxChars: 300 },
  hit_reasons: { maxItems: 50, maxChars: 300 },
  content_preview: { maxChars: CONTENT_PREVIEW_CHARS },
});

/** Every listed limit with the defaults filled in, resolved once at load: records are bounded on every lookup. */
const RESOLVED_LIMITS: ReadonlyMap<string, TraceFieldLimit> = new Map(
  Object.entries(TRACE_FIELD_LIMITS).map(([name, limit]) => [
    name,
    Object.freeze({ ...DEFAULT_FIELD_LIMIT, ...limit }),
  ]),
);

/** The limit of the field called `name` (the same frozen object on every call). */
export function fieldLimit(name: string): TraceFieldLimit {
  return RESOLVED_LIMITS.get(name) ?? DEFAULT_FIELD_LIMIT;
}
