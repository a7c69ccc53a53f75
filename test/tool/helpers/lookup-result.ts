import type { EvidenceBlock, LookupResult } from "../../../src/types.js";

/** An L0 evidence block; fields override. */
export function evidenceBlock(fields: Partial<EvidenceBlock> = {}): EvidenceBlock {
  return {
    source: "a.md#top",
    title: "A",
    breadcrumb: ["A"],
    retrievalLayer: "L0",
    content: "text",
    hitReasons: ["L0:bm25:1.00"],
    score: 1,
    ...fields,
  };
}

/** A medium-relevance L0-only lookup result holding `evidence`; fields override. */
export function lookupResult(evidence: EvidenceBlock[], fields: Partial<LookupResult> = {}): LookupResult {
  return {
    invocationId: "abcd1234-0000",
    query: "question",
    retrievalLayer: evidence.length > 0 ? "L0" : "none",
    hints: { titles: [], keywords: [], domains: [], entities: [] },
    domainFilter: null,
    l1Status: "disabled",
    fallbackReason: "l1_disabled",
    relevance: { level: "medium", semanticSupport: false, reason: "keyword match" },
    evidence,
    primary: evidence[0] ?? null,
    supplements: evidence.slice(1),
    candidateCount: evidence.length,
    evidenceCount: evidence.length,
    contentTruncated: false,
    traceWritten: false,
    ...fields,
  };
}
