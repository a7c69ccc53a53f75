import type { EvidenceLayer, FallbackReason, L1Status, LookupResult, RelevanceAssessment, RetrievalLayer } from "../../types.js";

/** One evidence block as the assertions and the report see it: no content, only its length. */
export interface CompactEvidence {
  source: string;
  retrievalLayer: EvidenceLayer;
  hitReasons: string[];
  score?: number;
  domain?: string;
  /** Length of the block's content in characters. */
  contentChars: number;
}

/** The part of a {@link LookupResult} the assertions check (what the provider puts in promptfoo's metadata). */
export interface CompactLookup {
  invocationId: string;
  query: string;
  retrievalLayer: RetrievalLayer;
  hints: { domains: string[] };
  domainFilter: string | null;
  l1Status: L1Status;
  fallbackReason: FallbackReason;
  relevance: Pick<RelevanceAssessment, "level" | "reason">;
  evidence: CompactEvidence[];
  evidenceCount: number;
  traceWritten: boolean;
}

/** The facts of one trace line that trace-line.ts checks, instead of the whole record. */
export interface CompactTraceLine {
  type?: string;
  invocation_id?: string;
  tool_name?: string;
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
