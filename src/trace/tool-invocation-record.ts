/** The shape of one `tool_invocation` line of the JSONL trace. */

/**
 * One `tool_invocation` line of the JSONL trace (snake_case, as persisted). Its line is at most
 * `MAX_TRACE_LINE_BYTES` long: long fields are cut to `TRACE_FIELD_LIMITS` and `truncated` names
 * them. Every field below `retrieval_details` is as the seed wrote it; the run ids, `embed`,
 * `error_type` came later and only add keys. `toOtelSpan` maps a record onto an OpenTelemetry
 * GenAI `execute_tool` span.
 */
export interface ToolInvocationRecord {
  /** Always `tool_invocation`: the record type, so that other lines of the file can be told apart. */
  type: "tool_invocation";
  /** The lookup's id (`LookupResult.invocationId`). */
  invocation_id: string;
  /** The id of the model's ToolCall the tool ran for (`ToolMessage.tool_call_id`); null outside a tool call. */
  tool_call_id: string | null;
  /**
   * The LangChain run id of the run that made the lookup (the tool's run, the retriever's run, or
   * the retrieval graph's run when invoked directly): the id LangSmith shows. Null when LangChain
   * made no run (a tool or retriever invoked with no callback handler and no tracer).
   */
  run_id: string | null;
  /** `configurable.thread_id` of the agent run; null when it had none. */
  thread_id: string | null;
  /** The name of the tool, graph or retriever that ran the lookup (`lookup_knowledge` by default). */
  tool_name: string;
  /** When the lookup started (ISO 8601). */
  started_at: string;
  /** Milliseconds from the start to the making of the record (the trace append not included), rounded to 0.01 ms. */
  duration_ms: number;
  /**
   * Milliseconds per stage (see `LookupTimings`), rounded to 0.01 ms. `total` runs to the moment
   * the record is made, so the trace append itself is in no line (a line cannot time its own
   * write): the artifact's `timings.traceMs` has it. `embed` is the query embedding and `l1` the
   * search without it (`embed + l1` is the whole L1 node). Absent in error records.
   */
  durations_ms?: { l0: number; embed: number; l1: number; merge: number; total: number };
  /**
   * `success` for a finished lookup; `error` for one that threw; `refused` for a call whose
   * arguments the input schema refused before any lookup ran (an MCP client's). `retrieval_details`
   * is null for the last two.
   */
  status: "success" | "error" | "refused";
  /** The lookup's input: the query, the domain the caller forced (null: none) and the limit. */
  input: { query: string; domain: string | null; limit: number };
  /** The fingerprint of the knowledge base the lookup ran on (`KnowledgeBase.fingerprint`). */
  corpus_fingerprint: string | null;
  /**
   * The committed index generation (`gen-<16 hex digits>`) the lookup ran on, so that a followed
   * index's reloads can be told apart; null for a base not loaded from a folder. Absent in lines
   * written before generations were traced.
   */
  index_generation?: string | null;
  /**
   * The access scope the lookup ran under, for an audit to replay who saw what: the caller's
   * groups (sorted, cut to the trace bounds: `group_count` is how many there were) and their
   * digest; null for an unscoped lookup; in an error record also null when the scope could not be
   * established (`error_type` `ACCESS_DENIED`). Absent in lines written before access scopes.
   */
  access?: { groups: string[]; group_count: number; digest: string } | null;
  /** Error and refused records: the error's message. */
  error?: string;
  /** Error and refused records: the class of the failure (the `LookupKnowledgeError` code, else the error's name), OpenTelemetry's `error.type`. */
  error_type?: string;
  /**
   * What the lookup found, in the trace's snake_case: layers, hints, L1, relevance, evidence
   * previews; null in error records.
   */
  retrieval_details: {
    retrieval_layer: string;
    /**
     * The hints (`L0Hints`): `domains` is every domain L0 matched a file of; `domain_evidence`
     * (`L0Hints.domainEvidence`, empty when the hints had none) how many files and how strongly.
     */
    l0: {
      matched_titles: string[];
      matched_keywords: string[];
      domains: string[];
      entities: string[];
      domain_evidence: { domain: string; strength: number; files: number }[];
    };
    l1: { status: string; domain_filter: string | null; candidate_count: number; error?: string };
    fallback_reason: string | null;
    relevance: { level: string; semantic_support: boolean };
    candidate_count: number;
    evidence_count: number;
    /** True when some block's content was cut to the evidence caps (the artifact's `contentTruncated`). */
    content_truncated: boolean;
    evidence: {
      source: string;
      title: string | null;
      retrieval_layer: string;
      score: number | null;
      hit_reasons: string[];
      content_preview: string;
    }[];
  } | null;
  /** Fields that were cut to fit the bound (`input.query`, `retrieval_details.evidence[].title`...); absent when none was. */
  truncated?: string[];
}
