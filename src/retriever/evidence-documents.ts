import { Document } from "@langchain/core/documents";
import type { EvidenceBlock, EvidenceLayer, LookupResult, RelevanceAssessment, RetrievalLayer } from "../types.js";

/** The metadata of a {@link Document} made from one evidence block: the block's fields and its lookup's. */
export interface KnowledgeDocumentMetadata {
  /** Stable id of the section, `<file>#<heading slug>` (also the Document's `id`). */
  source: string;
  /** Title of the document, null when it has none. */
  title: string | null;
  /** Heading path from the document title down to the section; empty when unknown. */
  breadcrumb: string[];
  /** Domain of the section, when the evidence carries it; absent otherwise. */
  domain?: string;
  /** The domain the lookup was filtered to (forced or chosen from the hints); null: every domain. */
  domainFilter: string | null;
  /** Layer(s) that found this block. */
  layer: EvidenceLayer;
  /** Rank in the lookup, from 1. */
  rank: number;
  /** Fused rank score of the lookup (1 best, 0 weakest kept); null when absent. Not comparable across lookups. */
  score: number | null;
  /** IDF-weighted share of the query's terms the block holds, 0 to 1; null when unmeasured. */
  termCoverage: number | null;
  /** L1's cosine similarity to the query; null when the dense layer did not return the block. */
  similarity: number | null;
  /** Why the block was found, each prefixed by its layer. */
  hitReasons: string[];
  /** How much of the section `pageContent` shows, when it was cut to the evidence caps; null when whole. */
  truncated: { shownChars: number; totalChars: number } | null;
  /** Relevance level of the whole lookup: how far its evidence can be trusted to answer. */
  relevance: RelevanceAssessment["level"];
  /** Layers that contributed to the lookup. */
  retrievalLayer: RetrievalLayer;
  /** Id of the lookup: its trace line's `invocation_id`. */
  invocationId: string;
}

const orNull = (value: number | undefined): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null;

function toDocument(block: EvidenceBlock, rank: number, result: LookupResult): Document<KnowledgeDocumentMetadata> {
  const metadata: KnowledgeDocumentMetadata = {
    source: block.source,
    title: block.title ?? null,
    breadcrumb: [...(block.breadcrumb ?? [])],
    ...("domain" in block && typeof block.domain === "string" ? { domain: block.domain } : {}),
    domainFilter: result.domainFilter,
    layer: block.retrievalLayer,
    rank,
    score: orNull(block.score),
    termCoverage: orNull(block.termCoverage),
    similarity: orNull(block.similarity),
    hitReasons: [...block.hitReasons],
    truncated: block.truncated ? { ...block.truncated } : null,
    relevance: result.relevance.level,
    retrievalLayer: result.retrievalLayer,
    invocationId: result.invocationId,
  };
  return new Document({ id: block.source, pageContent: block.content, metadata });
}

/**
 * One LangChain `Document` per evidence block of a lookup, in rank order: `pageContent` is the
 * block's content as written in the corpus (not escaped, unlike the tool's text), `id` its
 * `source`, and `metadata` the block's and the lookup's fields (pure). For graders and for
 * anything that takes Documents.
 * @example
 * const docs = evidenceToDocuments(message.artifact as LookupResult);
 */
export function evidenceToDocuments(result: LookupResult): Document<KnowledgeDocumentMetadata>[] {
  return result.evidence.map((block, i) => toDocument(block, i + 1, result));
}
