export { KnowledgeBase } from "./knowledge-base/knowledge-base.js";
export type { BuildProgress, KnowledgeBaseOptions } from "./knowledge-base/build-options.js";
export type { IndexManifest, IndexSettings, EmbedderInfo } from "./knowledge-base/manifest.js";
export { createLookupKnowledgeTool, type LookupKnowledgeToolOptions } from "./tool/lookup-knowledge-tool.js";
export { lookupKnowledgeSchema, type LookupKnowledgeInput, DEFAULT_LIMIT } from "./tool/schema.js";
export { formatEvidence } from "./tool/format-evidence.js";
export { createRetrievalGraph, type RetrievalGraph } from "./graph/retrieval-graph.js";
export { RetrievalState, type RetrievalStateType } from "./graph/state.js";
export { RELEVANCE_THRESHOLDS, assessRelevance, type RelevanceThresholds } from "./graph/relevance.js";
export { routeAfterL1, chooseDomainFilter, type AfterL1Route } from "./graph/routes.js";
export { TOOL_NAME, DEFAULT_TRACE_PATH, type RetrievalOptions, type RetrievalSource } from "./graph/options.js";
export { LsaEmbeddings, type LsaEmbeddingsOptions } from "./l1/embeddings/index.js";
export { JsonlTraceSink, type TraceSink } from "./trace/jsonl-trace-sink.js";
export type { ToolInvocationRecord } from "./trace/trace-record.js";
export { LookupKnowledgeError, type LookupKnowledgeErrorCode } from "./errors.js";
export type {
  Candidate,
  Chunk,
  DocumentMeta,
  EvidenceBlock,
  EvidenceLayer,
  FallbackReason,
  L0Hints,
  L1Status,
  LookupResult,
  RelevanceAssessment,
  RetrievalLayer,
  SkippedFile,
} from "./types.js";
