import type { EvidenceLayer, FallbackReason, L1Status, LookupResult, RelevanceAssessment, RetrievalLayer } from "../../types.js";

/** One evidence block as the assertions and the report see it: no content, only its length. */
export interface CompactEvidence {
  /** The chunk's source, `<file>#<heading slug>`. */
  source: string;
  /** The layer that found the block. */
  retrievalLayer: EvidenceLayer;
  /** Why the block was retrieved (`L0:...`, `L1:...`), as in the tool's evidence. */
  hitReasons: string[];
  /** The block's rank score, when it has one. */
  score?: number;
  /** The block's domain, when it has one. */
  domain?: string;
  /** Length of the block's content in characters. */
  contentChars: number;
}

/** The part of a {@link LookupResult} the assertions check (what the provider puts in promptfoo's metadata). */
export interface CompactLookup {
  /** The lookup's id, as in its trace line. */
  invocationId: string;
  /** The query the tool ran. */
  query: string;
  /** The layers that produced the evidence. */
  retrievalLayer: RetrievalLayer;
  /** The domains the L0 hints found. */
  hints: { domains: string[] };
  /** The domain L1 was filtered by, or null. */
  domainFilter: string | null;
  /** What happened to L1. */
  l1Status: L1Status;
  /** Why the lookup fell back to L0, or null. */
  fallbackReason: FallbackReason;
  /** The relevance judgement's level and reason. */
  relevance: Pick<RelevanceAssessment, "level" | "reason">;
  /** The evidence blocks, in order, without their content. */
  evidence: CompactEvidence[];
  /** How many evidence blocks the lookup returned. */
  evidenceCount: number;
  /** True when the tool wrote the lookup's trace line. */
  traceWritten: boolean;
}

/** The facts of one trace line that trace-line.ts checks, instead of the whole record. */
export interface CompactTraceLine {
  /** The record's `type` (`tool_invocation`). */
  type?: string;
  /** The record's `invocation_id`. */
  invocation_id?: string;
  /** The record's `tool_name`. */
  tool_name?: string;
  /** The record's `retrieval_details.evidence_count`. */
  evidence_count?: number;
  /** Length of every `content_preview`, in evidence order. */
  preview_chars: number[];
  /** Sources whose full content (longer than a preview) appears somewhere in the line. */
  full_content_sources: string[];
}

/** Projects a lookup result onto what the assertions need (pure). */
export function compactLookup(result: LookupResult): CompactLookup {
  return {
    invocationId: result.invocationId,
    query: result.query,
    retrievalLayer: result.retrievalLayer,
    hints: { domains: [...result.hints.domains] },
    domainFilter: result.domainFilter,
    l1Status: result.l1Status,
    fallbackReason: result.fallbackReason,
    relevance: { level: result.relevance.level, reason: result.relevance.reason },
    evidence: result.evidence.map((block) => ({
      source: block.source,
      retrievalLayer: block.retrievalLayer,
      hitReasons: [...block.hitReasons],
      ...(block.score !== undefined ? { score: block.score } : {}),
      ...(block.domain !== undefined ? { domain: block.domain } : {}),
      contentChars: block.content.length,
    })),
    evidenceCount: result.evidenceCount,
    traceWritten: result.traceWritten,
  };
}

interface RawTraceLine {
  type?: string;
  invocation_id?: string;
  tool_name?: string;
  retrieval_details?: { evidence_count?: number; evidence?: { content_preview?: string }[] } | null;
}

/**
 * Projects one trace record onto the facts trace-line.ts checks (pure). A block's full content
 * counts as leaked when it is longer than `previewChars` and its JSON-escaped text is in the line.
 */
export function compactTraceLine(line: unknown, result: LookupResult, previewChars: number): CompactTraceLine {
  const raw = (typeof line === "object" && line !== null ? line : {}) as RawTraceLine;
  const text = JSON.stringify(line);
  return {
    ...(raw.type !== undefined ? { type: raw.type } : {}),
    ...(raw.invocation_id !== undefined ? { invocation_id: raw.invocation_id } : {}),
    ...(raw.tool_name !== undefined ? { tool_name: raw.tool_name } : {}),
    ...(raw.retrieval_details?.evidence_count !== undefined ? { evidence_count: raw.retrieval_details.evidence_count } : {}),
    preview_chars: (raw.retrieval_details?.evidence ?? []).map((e) => (e.content_preview ?? "").length),
    full_content_sources: result.evidence
      .filter((block) => block.content.length > previewChars && text.includes(JSON.stringify(block.content).slice(1, -1)))
      .map((block) => block.source),
  };
}
