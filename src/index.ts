export { KnowledgeBase } from "./knowledge-base/knowledge-base.js";
export {
  followKnowledgeBase,
  FollowedKnowledgeBase,
  DEFAULT_FOLLOW_POLL_MS,
  type FollowOptions,
} from "./knowledge-base/followed-knowledge-base.js";
export type { BuildProgress, KnowledgeBaseOptions } from "./knowledge-base/build-options.js";
export {
  DEFAULT_SAVE_LOCK_WAIT_MS,
  type SaveOptions,
  type SaveProgress,
  type SaveStep,
} from "./knowledge-base/save-options.js";
export { acquireIndexLock, type IndexLock, type IndexLockOptions } from "./knowledge-base/index-lock.js";
export type { LockOwner } from "./knowledge-base/lock-file.js";
export { DEFAULT_CORPUS_OPTIONS, type CorpusOptions } from "./corpus/corpus-options.js";
export type { IndexManifest, IndexSettings, IndexHistory, EmbedderInfo } from "./knowledge-base/manifest.js";
export { MAX_DELETED_VECTOR_SHARE, type IndexChanges, type UpdateOptions } from "./knowledge-base/update-index.js";
export { LARGE_CORPUS_CHUNKS, LARGE_CORPUS_EF_CONSTRUCTION } from "./knowledge-base/resolve-build-options.js";
export {
  createLookupKnowledgeTool,
  type LookupKnowledgeToolExtras,
  type LookupKnowledgeToolOptions,
} from "./tool/lookup-knowledge-tool.js";
export {
  createLookupKnowledgeSchema,
  lookupKnowledgeSchema,
  type LookupKnowledgeInput,
  DEFAULT_LIMIT,
  DEFAULT_MAX_LIMIT,
} from "./graph/lookup-schema.js";
export { formatEvidence } from "./tool/format-evidence.js";
export { createRetrievalGraph, type RetrievalGraph, type RetrievalGraphExtras } from "./graph/retrieval-graph.js";
export { RetrievalState, type RetrievalStateType } from "./graph/state.js";
export { RELEVANCE_THRESHOLDS, assessRelevance, type RelevanceThresholds } from "./ranking/relevance.js";
export { routeAfterL1, chooseDomainFilter, type AfterL1Route } from "./graph/routes.js";
export {
  TOOL_NAME,
  DEFAULT_TRACE_PATH,
  type RetrievalOptions,
  type RetrievalSource,
  type FollowingSource,
  type PinnedSource,
} from "./graph/options.js";
export { RETRIEVAL_DEFAULTS, resolveRetrievalOptions, type RetrievalSettings } from "./graph/resolve-options.js";
export {
  LSA_DRIFT_DEFAULTS,
  LsaEmbeddings,
  lsaRefitNeeded,
  type LsaDriftInput,
  type LsaDriftOptions,
  type LsaEmbeddingsOptions,
  type LsaRefitDecision,
} from "./l1/embeddings/index.js";
export {
  DEFAULT_REOPEN_CHECK_MS,
  JsonlTraceSink,
  type JsonlTraceSinkOptions,
  type TraceSink,
} from "./trace/jsonl-trace-sink.js";
export { parseTraceText, readTraceFile, type TraceFileContents } from "./trace/read-trace-file.js";
export { MAX_TRACE_LINE_BYTES, TRACE_FIELD_LIMITS } from "./trace/trace-limits.js";
export { TRACE_WARNING_CODE } from "./trace/trace-warnings.js";
export type { ToolInvocationRecord } from "./trace/trace-record.js";
export { NO_RUN_IDENTITY, toolRunIdentity, type RunIdentity } from "./trace/run-identity.js";
export { OTEL_ATTRIBUTE_PREFIX, toOtelSpan, type OtelAttributeValue, type OtelSpan } from "./trace/otel-span.js";
export {
  createTraceSummarizer,
  formatTraceSummary,
  htmlTraceSummary,
  parseSince,
  readTraceLines,
  summarizeTraceFile,
  summarizeTraceLines,
  type DomainFilterUse,
  type LatencyPercentiles,
  type LineCounts,
  type QueryCount,
  type TraceLineVisitor,
  type TraceSummary,
  type TraceSummaryOptions,
} from "./trace/summary/index.js";
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
  LookupTimings,
  RelevanceAssessment,
  RetrievalLayer,
  SkippedFile,
} from "./types.js";
export type { L1Searcher, L1SearchOptions } from "./l1/l1-search.js";
export type { L0Searcher } from "./l0/l0-search.js";
export { createVectorStoreL1Searcher, type VectorStoreL1Deps } from "./l1/vector-store/vector-store-l1.js";
export type { VectorStoreDialect, VectorStoreTarget } from "./l1/vector-store/vector-store-dialect.js";
export { pgvectorDialect } from "./l1/vector-store/pgvector-dialect.js";
export { memoryDialect } from "./l1/vector-store/memory-dialect.js";
export { rowIdOf } from "./knowledge-base/vector-store-rows.js";
export type { VectorStoreL1Option } from "./knowledge-base/vector-store-option.js";
export type { RetainedRows } from "./knowledge-base/row-retention.js";
export type { LoadOptions } from "./knowledge-base/load-generation.js";
export type { LookupKnowledgeSchemaOptions } from "./graph/lookup-schema.js";
export { describeLookupKnowledge } from "./tool/tool-description.js";
export { TOOL_NAME_PATTERN } from "./graph/tool-name.js";
export type { RetrievalGraphOptions } from "./graph/options.js";
export {
  createKnowledgeRetriever,
  DEFAULT_RETRIEVER_NAME,
  KnowledgeBaseRetriever,
  type KnowledgeRetrieverOptions,
} from "./retriever/knowledge-retriever.js";
export { evidenceToDocuments, type KnowledgeDocumentMetadata } from "./retriever/evidence-documents.js";
export {
  connectPgVectorStore,
  type PgVectorConnectOptions,
  type PgVectorConnection,
} from "./l1/vector-store/connect-pgvector.js";
export type { CorpusCalibration } from "./calibration/calibration.js";
export type { AccessOption, AccessScope, AppliedScope, UnlabelledPolicy } from "./access/access-scope.js";
export type { AccessControl } from "./access/chunk-access.js";
export type { ChunkFilter } from "./access/chunk-filter.js";
