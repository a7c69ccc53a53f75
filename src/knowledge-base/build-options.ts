import type { UnlabelledPolicy } from "../access/access-scope.js";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { CorpusOptions } from "../corpus/corpus-options.js";
import type { Bm25Options } from "../l0/bm25.js";
import type { LsaEmbeddingsOptions } from "../l1/embeddings/index.js";
import type { VectorIndexOptions } from "../l1/vector-index.js";
import type { CalibrationOptions } from "../calibration/calibrate-index.js";
import type { VectorStoreL1Option } from "./vector-store-option.js";

/** A step of index building, for progress bars. */
export interface BuildProgress {
  /**
   * The step: `load` reads the corpus, `tokenize` its chunks, `keyword` builds the L0 indexes,
   * `fit` fits the default embedder, `embed` embeds the chunks, `vectors` builds the HNSW graph.
   */
  phase: "load" | "tokenize" | "keyword" | "fit" | "embed" | "vectors";
  /** Units of `phase` done so far: chunks, except for `load` and `fit`, which count as one unit. */
  done: number;
  /** Units `phase` has in all: the chunks it works on (1 for `load` and `fit`). */
  total: number;
}

/** Options of `KnowledgeBase.build` and `KnowledgeBase.fromChunks`. */
export interface KnowledgeBaseOptions {
  /**
   * Embeddings for L1. Omitted: the offline statistical default (LSA fitted on the corpus);
   * `null`: no L1 (an L0-only base); otherwise any LangChain embeddings.
   */
  embeddings?: EmbeddingsInterface | null;
  /**
   * Keep L1 in a LangChain vector store instead of the in-process HNSW graph (Postgres/pgvector,
   * or any store with a dialect): the build writes one row per chunk as a new generation of its
   * namespace, updates write only what changed, a save deletes the rows the committed index no
   * longer reads, the manifest records the store, and `KnowledgeBase.load(dir, { vectorStore })`
   * reconnects to it. The graph is still built and saved, as the source of the rows' vectors. See
   * docs/vector-stores.md.
   * @default none: L1 is the HNSW graph
   */
  vectorStore?: VectorStoreL1Option;
  /** Settings of the statistical default embedder. */
  lsa?: LsaEmbeddingsOptions;
  /** BM25 parameters of L0 ranking. @default { k1: 0.9, b: 0.4 } */
  bm25?: Bm25Options;
  /**
   * HNSW graph settings. From 50,000 chunks `efConstruction` defaults to 100 (half the build time,
   * recall@10 0.918 instead of 0.948 at 100k SciFact chunks) unless given.
   * @default { m: 16, efConstruction: 200, efSearch: 100, randomSeed: 100 }
   */
  hnsw?: VectorIndexOptions;
  /**
   * Index-time calibration of the fusion weight and relevance thresholds from pseudo-queries
   * drawn from the corpus (see docs/embeddings.md, "Calibration"); the result is in `kb.calibration` and the
   * manifest. `{ pseudoQueries: 0 }` turns it off.
   * @default { pseudoQueries: 200, seed: 42 }
   */
  calibration?: CalibrationOptions;
  /** Texts per `embedDocuments` call, an integer from 1. @default 64 */
  embedBatchSize?: number;
  /**
   * Milliseconds one `embedDocuments` batch may take before the build fails with
   * `EMBEDDINGS_TIMEOUT` naming the batch; `0` waits forever. Generous, because a service's own
   * retries with back-off run inside it.
   * @default 120000
   */
  embedTimeoutMs?: number;
  /**
   * Which files below `corpusDir` are read (`KnowledgeBase.build` only): dot-folders and dot-files,
   * excluded names, the largest file, chunk and corpus (see {@link CorpusOptions}).
   * @default { includeHidden: false, exclude: [".git", "node_modules"], maxFileBytes: 67108864, maxChunkBytes: 65536, maxChunksPerFile: 10000, maxFiles: 1000000 }
   */
  corpus?: CorpusOptions;
  /**
   * Called once per skipped corpus file with a line naming the file and the reason, and once per
   * file whose sections were split over `corpus.maxChunkBytes` with a line naming that limit. The
   * library never prints: the skips are also in `kb.skipped` and the saved manifest.
   * @default no-op
   */
  onWarning?: (message: string) => void;
  /** Called as indexing advances. @default no-op */
  onProgress?: (progress: BuildProgress) => void;
  /**
   * Who may read a file without an `access` field in its frontmatter (a chunk without
   * `meta.access`): `"allow"`, every scope; `"deny"`, no scope, for teams that must fail closed.
   * Saved with the index and kept by updates; a lookup without an `access` scope still reads
   * every file. @default "allow"
   */
  unlabelled?: UnlabelledPolicy;
}
