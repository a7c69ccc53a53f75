import type { LatencySummary } from "../measure/percentile.js";

/** Where the store-backed variant keeps its rows: a Postgres URL (never saved) and a table. */
export interface PgTarget {
  url: string;
  tableName: string;
}

/** L1 in the process (hnswlib graph) or in pgvector. */
export type Variant = "hnsw" | "store";

/** Build with `KnowledgeBase.fromChunks` (with or without `vectorStore`) and save. */
export interface BuildVariantSpec {
  task: "build";
  variant: Variant;
  size: number;
  dataset: string;
  indexDir: string;
  /** The store's table; null for the HNSW variant. */
  pg: PgTarget | null;
}

/** Load a saved index in a fresh process and serve a few lookups. */
export interface LoadVariantSpec {
  task: "load";
  variant: Variant;
  size: number;
  dataset: string;
  indexDir: string;
  pg: PgTarget | null;
  /** Tool lookups served after the load, before the second memory reading. */
  serveQueries: number;
}

/** Time L1 and the tool on both variants side by side, with and without a pgvector HNSW index. */
export interface QueryVariantsSpec {
  task: "query";
  size: number;
  dataset: string;
  hnswDir: string;
  storeDir: string;
  pg: PgTarget;
  /** Timed queries: the first of the SciFact test claims. */
  queries: number;
  /** Timed passes over the queries per system, in rotating system order. */
  repeats: number;
  /** Untimed calls per system first, with claims after the timed ones. */
  warmup: number;
  /** Also show what LangChain's own `createHnswIndex` and a plain index on the untyped column do (once). */
  indexNotes: boolean;
  /** `maintenance_work_mem` for the pgvector index build. */
  maintenanceWorkMem: string;
}

export type SizingSpec = BuildVariantSpec | LoadVariantSpec | QueryVariantsSpec;

/** `process.memoryUsage()` in bytes. */
export interface MemorySnapshot {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

/** Milliseconds spent inside the store's own calls during a build. */
export interface StoreCallTimes {
  addVectorsMs: number;
  addVectorsCalls: number;
  rowsWritten: number;
  deleteMs: number;
  deleteCalls: number;
}

export interface BuildVariantResult {
  variant: Variant;
  size: number;
  dimensions: number | null;
  /** `benchChunks` (replication), not part of the build. */
  generateMs: number;
  /** `KnowledgeBase.fromChunks` wall time. */
  buildMs: number;
  /** Milliseconds from the start of `fromChunks` to the first progress event of each phase. */
  phaseStartMs: Record<string, number>;
  /** Null for the HNSW variant. */
  storeCalls: StoreCallTimes | null;
  saveMs: number;
  indexBytes: number;
  vectorFileBytes: number;
  files: Record<string, number>;
  fingerprint: string;
  maxRssBytes: number;
}

export interface LoadVariantResult {
  variant: Variant;
  size: number;
  gcAvailable: boolean;
  /** After the imports (and, for the store, the connection), after a forced GC. */
  beforeLoad: MemorySnapshot;
  connectMs: number;
  loadMs: number;
  afterLoad: MemorySnapshot;
  afterServe: MemorySnapshot;
  serve: LatencySummary;
  /** L1 status of the served lookups, counted. */
  l1Statuses: Record<string, number>;
  /** Peak resident set of the whole process. */
  maxRssBytes: number;
  vectorFileBytes: number;
  /** Reading and hashing the vector file alone, after the load (page cache warm, as for the load). */
  vectorFileReadHashMs: number;
}

/**
 * When a system was timed: `repeated` (every system, rotating, `repeats` passes), `planner` (one
 * pass with the HNSW index present and the planner left to choose), `scope_stats` (one pass after
 * a btree on the row-scope expressions and ANALYZE gave the planner real statistics).
 */
export type TimingPhase = "repeated" | "planner" | "scope_stats";

/** One system's timings: per repeat (pass) and pooled. */
export interface SystemTimings {
  id: string;
  label: string;
  phase: TimingPhase;
  perRepeat: LatencySummary[];
  pooled: LatencySummary;
  /** Tool systems: L1 status of every timed lookup, counted. */
  l1Statuses?: Record<string, number>;
  /** L1 systems: share of the queries answered with 10 hits. */
  fullAnswers?: number;
}

/** The search SQL the store really sends, and its plan in each mode. */
export interface StoreSearchPlans {
  /** The store's SELECT, whitespace collapsed; `$1` is the query vector. */
  sql: string;
  /** Parameters after the vector: k, then the filter's values (namespace, generation...). */
  params: unknown[];
  /** `enable_indexscan = off`. */
  exact: string;
  /** `enable_seqscan = off`: the HNSW index forced. */
  index: string;
  /** Both reset, HNSW index present: the planner's own choice. */
  planner: string;
  /** The planner's choice after the scope btree + ANALYZE. */
  scopeStats: string;
}

export interface IndexNotes {
  columnType: string;
  /** `CREATE INDEX ... USING hnsw (embedding vector_cosine_ops)` on the column as created. */
  plainIndexOnCreatedColumn: string;
  /** `PGVectorStore.createHnswIndex({ dimensions })` (an expression index): the plan of the store's own query afterwards. */
  langchainCreateHnswIndexPlan: string | null;
  langchainCreateHnswIndexMs: number | null;
}

/** A p50 ratio of two systems timed in the same passes. */
export interface PassRatio {
  perRepeat: number[];
  median: number;
  min: number;
  max: number;
}

export interface QueryVariantsResult {
  size: number;
  queries: number;
  repeats: number;
  warmup: number;
  dimensions: number;
  domains: number;
  pgvectorVersion: string;
  sameFingerprint: boolean;
  /** Largest difference between the two knowledge bases' embedding of one query (0: same model). */
  queryVectorMaxDiff: number;
  columnTypeBefore: string;
  /** The ALTER that types the column so that an HNSW index can be built; null when not needed. */
  alterColumnMs: number | null;
  indexNotes: IndexNotes | null;
  createIndexMs: number;
  scopeIndexMs: number;
  maintenanceWorkMem: string;
  efSearch: string;
  plans: StoreSearchPlans;
  tableBytes: number;
  indexBytes: number;
  totalRelationBytes: number;
  systems: SystemTimings[];
  /** Mean overlap of the top 10 with pgvector exact (1 = same ten), over queries whose exact answer is not empty. */
  recallAt10: {
    pgIndexVsExact: number;
    pgIndexEf100VsExact: number;
    pgScopeStatsVsExact: number;
    hnswlibVsPgExact: number;
  };
  /** p50 of one system over another's, both measured in the same pass. */
  ratios: Record<string, PassRatio>;
}

/** What the Postgres server process used, read from /proc. */
export interface ServerMemory {
  rssBytes: number | null;
  peakRssBytes: number | null;
}
