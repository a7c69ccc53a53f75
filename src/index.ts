export { KnowledgeBase } from "./knowledge-base/knowledge-base.js";
export type { BuildProgress, KnowledgeBaseOptions } from "./knowledge-base/build-options.js";
export type { SaveOptions, SaveProgress, SaveStep } from "./knowledge-base/save-options.js";
export { DEFAULT_CORPUS_OPTIONS, type CorpusOptions } from "./corpus/corpus-options.js";
export type { IndexManifest, IndexSettings, EmbedderInfo } from "./knowledge-base/manifest.js";
export { createLookupKnowledgeTool, type LookupKnowledgeToolOptions } from "./tool/lookup-knowledge-tool.js";
export { createLookupKnowledgeSchema, lookupKnowledgeSchema, type LookupKnowledgeInput, DEFAULT_LIMIT, DEFAULT_MAX_LIMIT } from "./tool/schema.js";
export { formatEvidence } from "./tool/format-evidence.js";
export { createRetrievalGraph, type RetrievalGraph } from "./graph/retrieval-graph.js";
export { RetrievalState, type RetrievalStateType } from "./graph/state.js";
export { RELEVANCE_THRESHOLDS, assessRelevance, type RelevanceThresholds } from "./graph/relevance.js";
export { routeAfterL1, chooseDomainFilter, type AfterL1Route } from "./graph/routes.js";
export { TOOL_NAME, DEFAULT_TRACE_PATH, type RetrievalOptions, type RetrievalSource } from "./graph/options.js";
export { RETRIEVAL_DEFAULTS, resolveRetrievalOptions, type RetrievalSettings } from "./graph/resolve-options.js";
export { LsaEmbeddings, type LsaEmbeddingsOptions } from "./l1/embeddings/index.js";
export { JsonlTraceSink, type JsonlTraceSinkOptions, type TraceSink } from "./trace/jsonl-trace-sink.js";
export { parseTraceText, readTraceFile, type TraceFileContents } from "./trace/read-trace-file.js";
export { MAX_TRACE_LINE_BYTES, TRACE_FIELD_LIMITS } from "./trace/trace-limits.js";
export { TRACE_WARNING_CODE } from "./trace/trace-warnings.js";
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
