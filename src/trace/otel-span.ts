/**
 * A trace record as an OpenTelemetry span (plain objects; no OpenTelemetry dependency).
 *
 * Names follow the OpenTelemetry GenAI semantic conventions for tool execution (status
 * Development), as read on 2026-12-02: semantic-conventions v1.41.0
 * `docs/gen-ai/gen-ai-agent-spans.md` ("Execute tool span") and
 * `open-telemetry/semantic-conventions-genai` `docs/gen-ai/execute-tool.md`: span name
 * `execute_tool {gen_ai.tool.name}`, kind INTERNAL, `gen_ai.operation.name` = `execute_tool`,
 * `gen_ai.tool.name`, `gen_ai.tool.call.id`, `gen_ai.tool.type` (`function`),
 * `gen_ai.conversation.id`, and `error.type` with status ERROR on failure (status left UNSET on
 * success, as the tracing API asks of instrumentations).
 */
import type { ToolInvocationRecord } from "./tool-invocation-record.js";

/** Values an OpenTelemetry attribute may hold. */
export type OtelAttributeValue = string | number | boolean | string[];

/** One span, shaped after OTLP/JSON (`startTimeUnixNano` as a decimal string); no trace or span id: the exporter's SDK assigns them. */
export interface OtelSpan {
  /** `execute_tool <tool_name>`. */
  name: string;
  /** Always `INTERNAL`, as the convention has it for tool execution. */
  kind: "INTERNAL";
  /** The record's `started_at`, in nanoseconds since the Unix epoch (0 when it is unreadable). */
  startTimeUnixNano: string;
  /** `started_at + duration_ms`, in nanoseconds since the Unix epoch. */
  endTimeUnixNano: string;
  /** `ERROR` with the record's `error` as its message for an error record; `UNSET` otherwise. */
  status: { code: "UNSET" | "ERROR"; message?: string };
  /**
   * The `gen_ai.*` and `error.type` attributes of the convention and ours under
   * `lookup_knowledge.*`; null and absent values left out.
   */
  attributes: Record<string, OtelAttributeValue>;
}

/** Prefix of the attributes that are ours, not the convention's. */
export const OTEL_ATTRIBUTE_PREFIX = "lookup_knowledge.";

function nanos(ms: number): string {
  // Whole microseconds as a BigInt keep the nanosecond string exact.
  return (BigInt(Math.round(ms * 1000)) * 1000n).toString();
}

/** The attributes of a record, `undefined` and `null` values left out. */
function attributesOf(record: ToolInvocationRecord): Record<string, OtelAttributeValue> {
  const p = OTEL_ATTRIBUTE_PREFIX;
  const details = record.retrieval_details;
  const entries: [string, OtelAttributeValue | null | undefined][] = [
    ["gen_ai.operation.name", "execute_tool"],
    ["gen_ai.tool.name", record.tool_name],
    ["gen_ai.tool.type", "function"],
    ["gen_ai.tool.call.id", record.tool_call_id],
    ["gen_ai.conversation.id", record.thread_id],
    ["error.type", record.error_type],
    [`${p}invocation_id`, record.invocation_id],
    [`${p}run_id`, record.run_id],
    [`${p}corpus_fingerprint`, record.corpus_fingerprint],
    [`${p}input.domain`, record.input?.domain],
    [`${p}input.limit`, record.input?.limit],
    [`${p}retrieval_layer`, details?.retrieval_layer],
    [`${p}l1.status`, details?.l1.status],
    [`${p}l1.domain_filter`, details?.l1.domain_filter],
    [`${p}fallback_reason`, details?.fallback_reason],
    [`${p}relevance.level`, details?.relevance.level],
    [`${p}candidate_count`, details?.candidate_count],
    [`${p}evidence_count`, details?.evidence_count],
    [`${p}evidence.sources`, details?.evidence.map((block) => block.source)],
    ...Object.entries(record.durations_ms ?? {}).map(([stage, ms]): [string, number] => [
      `${p}duration_ms.${stage}`,
      ms,
    ]),
  ];
  return Object.fromEntries(
    entries.filter((entry): entry is [string, OtelAttributeValue] => entry[1] !== null && entry[1] !== undefined),
  );
}

/**
 * Maps one `tool_invocation` record onto an `execute_tool` span, one to one: `tool_name` →
 * `gen_ai.tool.name` and the span name, `tool_call_id` → `gen_ai.tool.call.id`, `thread_id` →
 * `gen_ai.conversation.id`, `error_type` → `error.type` (status ERROR, `error` as its message),
 * `started_at` and `started_at + duration_ms` → the span's times; `run_id`, `invocation_id`,
 * the retrieval outcome and `durations_ms.*` go under `lookup_knowledge.*`. The query text and
 * the evidence previews are left out (the convention makes tool arguments and results opt-in,
 * as they may be sensitive). Pure; `retrieval_details` is read, never changed.
 * @example
 * for (const record of (await readTraceFile(path)).records) exporter.export(toOtelSpan(record as ToolInvocationRecord));
 */
export function toOtelSpan(record: ToolInvocationRecord): OtelSpan {
  const startMs = Date.parse(record.started_at);
  const start = Number.isFinite(startMs) ? startMs : 0;
  const duration = Number.isFinite(record.duration_ms) && record.duration_ms > 0 ? record.duration_ms : 0;
  return {
    name: `execute_tool ${record.tool_name}`,
    kind: "INTERNAL",
    startTimeUnixNano: nanos(start),
    endTimeUnixNano: nanos(start + duration),
    status:
      record.status === "error" || record.status === "refused"
        ? { code: "ERROR", ...(record.error !== undefined ? { message: record.error } : {}) }
        : { code: "UNSET" },
    attributes: attributesOf(record),
  };
}
