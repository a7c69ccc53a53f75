/**
 * lookup-knowledge: the `lookup_knowledge` tool for LangChain and LangGraph agents, over a Markdown
 * knowledge base (L0 keyword hints, L1 dense search, a JSONL trace).
 *
 * The root module is the package's promise to its users: what an app needs to build, load and
 * follow a knowledge base, bind the tool, embed the graph, use the retriever, keep L1 in a vector
 * store, read its traces and catch its one error type. Everything else is internal and may change.
 * The evaluation harness is `lookup-knowledge/eval`. `api/lookup-knowledge.api.md` is the reviewed
 * report of this surface; CI fails when it changes without the report.
 *
 * @packageDocumentation
 */

// The knowledge base: build (from a folder or LangChain documents), save, load, update, sync, follow, lock.
export { KnowledgeBase } from "./knowledge-base/knowledge-base.js";
export type { BuildProgress, KnowledgeBaseOptions } from "./knowledge-base/build-options.js";
export type { SaveOptions, SaveProgress, SaveStep } from "./knowledge-base/save-options.js";
export type { LoadOptions } from "./knowledge-base/load-generation.js";
export type { IndexChanges, UpdateOptions } from "./knowledge-base/update-index.js";
export type {
  DataFileHead,
  IndexManifest,
  IndexSettings,
  IndexHistory,
  EmbedderInfo,
} from "./knowledge-base/manifest.js";
export type { CorpusOptions } from "./corpus/corpus-options.js";
export type { DocumentRecord, IndexedFile } from "./corpus/load-corpus.js";
export type { CorpusOrigin } from "./knowledge-base/corpus-origin.js";
export type { SyncDocumentsOptions } from "./knowledge-base/document-sync.js";
export type { ReindexOptions } from "./knowledge-base/update-index.js";
export type {
  DocumentOptions,
  MetadataField,
  MetadataMapping,
  TextSplitterLike,
} from "./documents/document-options.js";
export type { DocumentLoaderLike, DocumentSource } from "./documents/document-source.js";
export type { CleanupMode, SyncResult } from "./documents/sync-documents-plan.js";
export type { CalibrationMeasurements, CorpusCalibration, SignalQuantiles } from "./calibration/calibration.js";
export type { CalibrationOptions } from "./calibration/calibrate-index.js";
export type { VectorIndexOptions } from "./l1/vector-index-options.js";
export type { Bm25Options } from "./l0/bm25-options.js";
export {
  followKnowledgeBase,
  type FollowedKnowledgeBase,
  type FollowOptions,
} from "./knowledge-base/followed-knowledge-base.js";
export { acquireIndexLock, type IndexLock, type IndexLockOptions } from "./knowledge-base/index-lock.js";
export type { LockOwner } from "./knowledge-base/lock-file.js";

// The tool, the graph behind it, and the retriever: three views of one lookup.
export {
  createLookupKnowledgeTool,
  type LookupKnowledgeToolExtras,
  type LookupKnowledgeToolOptions,
} from "./tool/lookup-knowledge-tool.js";
export type { LookupKnowledgeInput } from "./graph/lookup-schema.js";
export { createRetrievalGraph, type RetrievalGraph, type RetrievalGraphExtras } from "./graph/retrieval-graph.js";
export { RetrievalState, type RetrievalStateType } from "./graph/state.js";
export type { LayeredEvidence } from "./ranking/evidence.js";
export {
  TOOL_NAME,
  type FollowingSource,
  type PinnedSource,
  type RetrievalGraphOptions,
  type RetrievalOptions,
  type RetrievalSource,
} from "./graph/options.js";
export type { RelevanceThresholds } from "./ranking/relevance.js";
export {
  createKnowledgeRetriever,
  KnowledgeBaseRetriever,
  type KnowledgeRetrieverOptions,
} from "./retriever/knowledge-retriever.js";
export type { KnowledgeDocumentMetadata } from "./retriever/evidence-documents.js";

// Who may read what: the caller's scope, from trusted code only.
export type { AccessOption, AccessScope, UnlabelledPolicy } from "./access/access-scope.js";
export type { AccessControl } from "./access/chunk-access.js";
export type { ChunkFilter } from "./access/chunk-filter.js";

// L1 in a vector store (pgvector and any LangChain store through a dialect).
export {
  connectPgVectorStore,
  type PgVectorConnectOptions,
  type PgVectorConnection,
} from "./l1/vector-store/connect-pgvector.js";
export {
  createVectorStoreL1Searcher,
  type SearchedRows,
  type VectorStoreL1Deps,
} from "./l1/vector-store/vector-store-l1.js";
export type { RowScope, VectorStoreDialect, VectorStoreTarget } from "./l1/vector-store/vector-store-dialect.js";
export { pgvectorDialect } from "./l1/vector-store/pgvector-dialect.js";
export { memoryDialect } from "./l1/vector-store/memory-dialect.js";
export type { VectorStoreL1Option } from "./knowledge-base/vector-store-option.js";
export type { RetainedRows } from "./knowledge-base/row-retention.js";
export type { L1Searcher, L1SearchOptions } from "./l1/l1-search.js";
export type { L0Result, L0Searcher, L0SearchOptions } from "./l0/l0-search.js";
export type { TermCoverage } from "./l0/term-coverage.js";

// The offline default embedder.
export { LsaEmbeddings, type LsaEmbeddingsOptions, type LsaModelHeader } from "./l1/embeddings/index.js";
export type { TermBags } from "./text/term-bags.js";

// The trace: write, read, summarise, export.
export { JsonlTraceSink, type JsonlTraceSinkOptions, type TraceSink } from "./trace/jsonl-trace-sink.js";
export type { OpenedTraceFile, TraceFile, TraceFileState } from "./trace/trace-file.js";
export { readTraceFile, type TraceFileContents } from "./trace/read-trace-file.js";
export type { ToolInvocationRecord } from "./trace/trace-record.js";
export {
  formatTraceSummary,
  summarizeTraceFile,
  type DomainFilterUse,
  type LatencyPercentiles,
  type LineCounts,
  type QueryCount,
  type TraceSummary,
  type TraceSummaryOptions,
} from "./trace/summary/index.js";
export type { RunIdentity } from "./trace/run-identity.js";
export { toOtelSpan, type OtelAttributeValue, type OtelSpan } from "./trace/otel-span.js";

// The one error type.
export { LookupKnowledgeError, type LookupKnowledgeErrorCode } from "./errors.js";

// What a lookup returns and what a corpus holds.
export type {
  AppliedScope,
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
