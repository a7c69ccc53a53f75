import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { Bm25Stats } from "../l0/bm25.js";
import type { IndexedFile } from "../corpus/load-corpus.js";
import type { HintIndex } from "../l0/hint-index.js";
import type { VectorIndex } from "../l1/vector-index.js";
import type { Chunk, SkippedFile } from "../types.js";
import type { IndexHistory, IndexSettings } from "./manifest.js";
import type { CorpusCalibration } from "../calibration/calibration.js";
import type { VectorStoreTarget } from "../l1/vector-store/vector-store-dialect.js";
import type { VectorStoreL1Option } from "./vector-store-option.js";
import type { CorpusOrigin } from "./corpus-origin.js";
import type { CommittedRows } from "./row-retention.js";

/** The vector store that holds L1, and where in it (as the manifest records it). */
export interface VectorStorePart extends Required<VectorStoreL1Option> {
  target: VectorStoreTarget;
  /** The generation of the rows this index reads; a full build or an embedder refit starts a new one. */
  generation: string;
  /** Updates since this generation's full build (`lk_rev` of the rows the last one wrote); null for rows written before revisions were recorded. */
  revision: number | null;
  /** Rows to delete once a save commits: what a failed or unconfirmed prune left. */
  pendingDeletes: string[];
  /** Rows of `committed`'s generation it reads and this state no longer does (chunks updates changed or removed). */
  removed: string[];
  /** The commit this state derives from (a load's, or the last save's); null for a build not saved yet. */
  committed: CommittedRows | null;
}

/** Everything a knowledge base is made of: what a save writes and a load restores. */
export interface IndexParts {
  chunks: Chunk[];
  skipped: SkippedFile[];
  fileCount: number;
  /** The corpus files with their content hashes, for incremental re-indexing; null when built from ready-made chunks. */
  files: IndexedFile[] | null;
  /** The corpus folder the chunks were read from; null when built from ready-made chunks or loaded from an index that did not record it. */
  corpus: CorpusOrigin | null;
  hintIndex: HintIndex;
  bm25: Bm25Stats;
  embeddings: EmbeddingsInterface | null;
  vectorIndex: VectorIndex | null;
  settings: IndexSettings;
  history: IndexHistory;
  /** Fusion weight and relevance thresholds calibrated by the last full build; kept by updates. */
  calibration: CorpusCalibration;
  /**
   * The vector store L1 searches instead of the HNSW graph; null for HNSW. The graph, when present,
   * is then kept only as the source of the vectors an update writes.
   */
  vectorStore: VectorStorePart | null;
  /** {@link fingerprintOf} the chunks and settings: computed by a build or update, read from the manifest by a load. */
  fingerprint: string;
  /** The committed generation folder (`gen-<16 hex digits>`) a load read; absent for a built or updated base. */
  committedGeneration?: string;
}
