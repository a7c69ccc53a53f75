import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { checkUnlabelled } from "../access/access-scope.js";
import { ChunkAccess, type AccessControl } from "../access/chunk-access.js";
import type { CorpusCalibration } from "../calibration/calibration.js";
import { loadCorpus, type IndexedFile } from "../corpus/load-corpus.js";
import type { RetrievalSource } from "../graph/options.js";
import { createL0Searcher, type L0Searcher } from "../l0/l0-search.js";
import { createTermCoverage } from "../l0/term-coverage.js";
import { createL1Searcher, type L1Searcher } from "../l1/l1-search.js";
import {
  createKnowledgeRetriever,
  type KnowledgeBaseRetriever,
  type KnowledgeRetrieverOptions,
} from "../retriever/knowledge-retriever.js";
import type { Chunk, SkippedFile } from "../types.js";
import type { KnowledgeBaseOptions } from "./build-options.js";
import { buildIndexParts } from "./build-index-parts.js";
import { corpusOriginOf, type CorpusOrigin } from "./corpus-origin.js";
import { loadIndexParts, saveIndexParts, type IndexParts } from "./index-store.js";
import type { LoadOptions } from "./load-generation.js";
import { expectedGeneration, originOf, saveLocked, type SavedOrigin } from "./locked-save.js";
import type { IndexHistory, IndexSettings } from "./manifest.js";
import { checkFolder, resolveBuildOptions } from "./resolve-build-options.js";
import type { SaveOptions } from "./save-options.js";
import { updateIndexParts, type IndexChanges, type UpdateOptions } from "./update-index.js";
import { storeSearcherOf } from "./vector-store-l1-parts.js";
import type { DocumentOptions } from "../documents/document-options.js";
import type { DocumentSource } from "../documents/document-source.js";
import { corpusOfDocuments, syncDocumentParts, type SyncDocumentsOptions } from "./document-sync.js";
import { reportCorpus } from "./report-corpus.js";
import type { SyncResult } from "../documents/sync-documents-plan.js";

/**
 * A Markdown knowledge base indexed for both layers: FlexSearch + BM25 (L0) and an HNSW graph of
 * chunk embeddings (L1). Build it once, save it, and load it; lookups never rebuild it.
 * @example
 * const kb = await KnowledgeBase.build({ corpusDir: "corpus" });
 * await kb.save(".index");
 * const same = await KnowledgeBase.load(".index");
 */
export class KnowledgeBase implements RetrievalSource {
  /**
   * Every indexed chunk; a chunk's position is its number in both indexes. The chunks of a loaded
   * index inflate their text when `content` is read: it is a getter, so copy one with
   * `{ ...chunk, content: chunk.content }` (`JSON.stringify` includes it).
   */
  readonly chunks: readonly Chunk[];
  /** Corpus files that were not indexed, and why. */
  readonly skipped: readonly SkippedFile[];
  /** Hash of the indexed content and index settings. */
  readonly fingerprint: string;
  /** The distinct domains of the indexed chunks, sorted. */
  readonly domains: readonly string[];
  /** The keyword layer. */
  readonly l0: L0Searcher;
  /** The dense layer; null for an L0-only base. */
  readonly l1: L1Searcher | null;
  /** The embeddings L1 uses; null for an L0-only base. */
  readonly embeddings: EmbeddingsInterface | null;
  /**
   * The settings the index was built with (term rules version, BM25, HNSW, embedder, `unlabelled`),
   * as the manifest saves them.
   */
  readonly settings: IndexSettings;
  /**
   * The chunks each access scope may read (frontmatter `access`, the `unlabelled` policy): what
   * the tool, graph and retriever enforce when given an `access` scope.
   */
  readonly access: AccessControl;
  /**
   * The committed generation a load read (`gen-<16 hex digits>`, as the manifest names it): what
   * each lookup's trace line records as `index_generation`. Null for a built or updated base.
   */
  readonly generation: string | null;
  readonly #parts: IndexParts;
  /** A load's `unlabelled: "deny"`, kept by updates; it narrows the index's own policy. */
  readonly #denyUnlabelled: boolean;
  /** The folder and generation this base (or the base it was updated from) was loaded from or last saved to. */
  #origin: SavedOrigin | null;

  private constructor(parts: IndexParts, denyUnlabelled = false, origin: SavedOrigin | null = null) {
    this.#parts = parts;
    this.#origin = origin;
    this.#denyUnlabelled = denyUnlabelled;
    this.access = new ChunkAccess(
      parts.chunks,
      denyUnlabelled || parts.settings.unlabelled === "deny" ? "deny" : "allow",
    );
    this.chunks = parts.chunks;
    this.skipped = parts.skipped;
    this.settings = parts.settings;
    this.embeddings = parts.embeddings;
    this.fingerprint = parts.fingerprint;
    this.generation = parts.committedGeneration ?? null;
    const domains = new Set<string>();
    for (const { meta } of parts.chunks) if (meta.domain) domains.add(meta.domain);
    this.domains = [...domains].sort();
    this.l0 = createL0Searcher(parts);
    const { chunks, embeddings, vectorIndex } = parts;
    this.l1 =
      storeSearcherOf(parts) ??
      (embeddings === null
        ? null
        : vectorIndex === null
          ? { search: async () => [] }
          : createL1Searcher({ chunks, vectorIndex, embeddings, coverage: createTermCoverage(parts.bm25) }));
  }

  /**
   * Reads, chunks and indexes every Markdown file below `corpusDir` (which ones: `options.corpus`).
   * A file that cannot be indexed never fails the build: it is listed in `skipped` and passed to
   * `onWarning` (a no-op by default; the library never prints).
   */
  static async build(options: KnowledgeBaseOptions & { corpusDir: string }): Promise<KnowledgeBase> {
    resolveBuildOptions(options);
    checkFolder("corpusDir", options.corpusDir);
    options.onProgress?.({ phase: "load", done: 0, total: 1 });
    const corpus = await loadCorpus(options.corpusDir, options.corpus);
    reportCorpus(corpus, options.onWarning);
    return KnowledgeBase.fromChunks(corpus.chunks, options, {
      skipped: corpus.skipped,
      fileCount: corpus.fileCount,
      files: corpus.files,
      corpus: await corpusOriginOf(options.corpusDir),
    });
  }

  /**
   * Indexes LangChain documents: a list, an (async) iterable, or a document loader
   * (`DirectoryLoader`, `PDFLoader`, ...). Documents with the same source id (`sourceIdKey`,
   * default `metadata.source`) form one source; Markdown is split by headings, other text by
   * paragraphs (or `options.splitter`); title, domain, keywords, entities, aliases and access come
   * from metadata (`options.metadataFields`). A document that cannot be indexed is listed in
   * `skipped` and passed to `onWarning`. Keep the base in sync with {@link KnowledgeBase.syncDocuments}.
   * @throws LookupKnowledgeError `DOCUMENTS_UNREADABLE` when the loader throws; `INVALID_OPTION`; the embedding errors of a build.
   * @example
   * const kb = await KnowledgeBase.fromDocuments(new DirectoryLoader("docs", { ".txt": (p) => new TextLoader(p) }));
   */
  static async fromDocuments(
    source: DocumentSource,
    options: KnowledgeBaseOptions & DocumentOptions = {},
  ): Promise<KnowledgeBase> {
    resolveBuildOptions(options);
    options.onProgress?.({ phase: "load", done: 0, total: 1 });
    const corpus = await corpusOfDocuments(source, options);
    return KnowledgeBase.fromChunks(corpus.chunks, options, {
      skipped: corpus.skipped,
      fileCount: corpus.fileCount,
      files: corpus.files,
    });
  }

  /**
   * Syncs a knowledge base built by {@link KnowledgeBase.fromDocuments} (and saved and loaded, or
   * not) with `source`, as LangChain's `index()` syncs a vector store: every source given is
   * replaced by the documents given for it, unchanged documents (same content and metadata) keep
   * their chunks and vectors, and `cleanup: "full"` also removes the sources not given. Returns
   * the synced base (use it, not this one, afterwards: the indexes change in place), the counts of
   * documents added, updated, skipped and deleted, and what changed in the indexes. Save it to
   * persist the sync as a new generation.
   * @throws LookupKnowledgeError `INVALID_OPTION` for a base built from a corpus folder or
   * ready-made chunks; `DOCUMENTS_UNREADABLE`; the embedding errors of an update.
   * @example
   * const { knowledgeBase, result } = await kb.syncDocuments(await loader.load(), { cleanup: "full" });
   * await knowledgeBase.save(".index");
   */
  async syncDocuments(
    source: DocumentSource,
    options: SyncDocumentsOptions = {},
  ): Promise<{ knowledgeBase: KnowledgeBase; result: SyncResult; changes: IndexChanges }> {
    const { parts, changes, result } = await syncDocumentParts(this.#parts, source, options);
    return {
      knowledgeBase: new KnowledgeBase(
        { ...parts, committedGeneration: undefined },
        this.#denyUnlabelled,
        this.#origin,
      ),
      result,
      changes,
    };
  }

  /** Indexes ready-made chunks (one per dataset row, for example); each chunk's `source` must be unique. */
  static async fromChunks(
    chunks: Chunk[],
    options: KnowledgeBaseOptions = {},
    origin: { skipped?: SkippedFile[]; fileCount?: number; files?: IndexedFile[]; corpus?: CorpusOrigin } = {},
  ): Promise<KnowledgeBase> {
    return new KnowledgeBase(await buildIndexParts(chunks, options, origin));
  }

  /**
   * Saves both indexes, the embedder model (for the default embedder) and a manifest into `dir`,
   * replacing a previous index atomically: a reader, a crash or a `kill -9` at any moment finds the
   * complete old index or the complete new one. Leftovers of killed saves are removed. `dir` must
   * be missing, empty or an index folder.
   *
   * One writer at a time: the save takes the folder's writer lock (`.lookup-knowledge.lock`),
   * waiting up to `lockWaitMs` for another writer, unless the caller holds it (`options.lock`). A
   * base loaded from `dir`, or updated from one, only replaces the generation it was loaded from
   * (`startedFrom`): when another writer committed meanwhile, the save fails and changes nothing.
   * After a save, a loaded or updated base counts as coming from the generation it committed, so
   * saving it again into the same folder works; a base from `build` or `fromChunks` overwrites
   * whatever is committed, at every save.
   * @throws LookupKnowledgeError `INDEX_WRITE_FAILED` naming the folder and the cause (full disk,
   * no permission, a folder that is not an index); the previous index then stays as it was.
   * `INDEX_LOCKED` when another writer holds the lock; `INDEX_CHANGED` when it committed since
   * this base was loaded.
   */
  async save(dir: string, options: SaveOptions = {}): Promise<void> {
    checkFolder("the index folder", dir);
    const expected = expectedGeneration(dir, this.#origin, options.startedFrom);
    const saved = await saveLocked(dir, options, expected, (locked) =>
      saveIndexParts(dir, this.#parts, { fingerprint: this.fingerprint, domains: [...this.domains] }, locked),
    );
    // A built base keeps overwriting; a loaded one now comes from what it committed.
    if (this.#origin !== null) this.#origin = saved;
  }

  /**
   * Re-reads the corpus folder this knowledge base was built from and returns the updated
   * knowledge base, changing only what the edits touch (see `update-index.ts`): unchanged files are
   * not parsed, unchanged chunks are not tokenized or embedded again, removed ones leave both
   * layers. L0 answers exactly as a full rebuild would. The indexes are changed in place: use the
   * returned knowledge base afterwards, not this one. Save it to persist the update.
   * @throws LookupKnowledgeError `INVALID_OPTION` for a knowledge base built from ready-made chunks;
   * the embedding errors of a build when new chunks cannot be embedded.
   * @example
   * const { knowledgeBase, changes } = await (await KnowledgeBase.load(".index")).update({ corpusDir: "corpus" });
   * await knowledgeBase.save(".index");
   */
  async update(options: UpdateOptions): Promise<{ knowledgeBase: KnowledgeBase; changes: IndexChanges }> {
    checkFolder("corpusDir", options.corpusDir);
    const { parts, changes } = await updateIndexParts(this.#parts, options);
    return {
      knowledgeBase: new KnowledgeBase(
        { ...parts, committedGeneration: undefined },
        this.#denyUnlabelled,
        this.#origin,
      ),
      changes,
    };
  }

  /**
   * Fusion weight and relevance thresholds calibrated for this corpus and embedder by the last full
   * build (updates keep it): what lookups use unless their options set `fusion` or `relevance`.
   */
  get calibration(): CorpusCalibration {
    return this.#parts.calibration;
  }

  /**
   * A LangChain retriever over this knowledge base: each query runs the retrieval subgraph (both
   * layers, fallback, dedupe, trace) and returns the evidence as `Document`s whose metadata carry
   * source, title, breadcrumb, layer, score and hit reasons. Usable in `EnsembleRetriever`,
   * `createRetrieverTool` or any chain; `close()` releases its trace file.
   * @example
   * const retriever = kb.asRetriever({ limit: 8, tracePath: null });
   * const docs = await retriever.invoke("who approves a large refund?");
   */
  asRetriever(options: Omit<KnowledgeRetrieverOptions, "knowledgeBase"> = {}): KnowledgeBaseRetriever {
    return createKnowledgeRetriever({ ...options, knowledgeBase: this });
  }

  /**
   * Where L1 lives when it is in a vector store: the dialect, the target (table...), this base's
   * namespace, the generation of rows it reads, how many rows await deletion at the next save, and
   * how many earlier commits keep their rows for replicas (`keepGenerations`); null when L1 is the HNSW graph.
   */
  get vectorStore(): {
    dialect: string;
    target: Readonly<Record<string, string | number | null>>;
    namespace: string;
    generation: string;
    pendingDeletes: number;
    retained: number;
  } | null {
    const store = this.#parts.vectorStore;
    return store === null
      ? null
      : {
          dialect: store.dialect.name,
          target: store.target,
          namespace: store.namespace,
          generation: store.generation,
          pendingDeletes: store.pendingDeletes.length + store.removed.length,
          retained: store.committed?.retained.length ?? 0,
        };
  }

  /**
   * The corpus folder this base was built or last updated from: its absolute real path then, and
   * (for a loaded index) the same folder relative to the index folder; null for a base built from
   * ready-made chunks or loaded from an index saved before the folder was recorded.
   */
  get corpusOrigin(): Readonly<CorpusOrigin> | null {
    return this.#parts.corpus;
  }

  /** The indexed corpus files in chunk order, each with the SHA-256 of its bytes; null for a base built from ready-made chunks. */
  get indexedFiles(): readonly Readonly<IndexedFile>[] | null {
    return this.#parts.files;
  }

  /** How this index came to be: a full build or incremental updates, and the embedder's fit. */
  get history(): IndexHistory {
    return this.#parts.history;
  }

  /**
   * Loads a saved index. Pass the same `embeddings` it was built with when they were custom ones;
   * the default statistical embedder is restored from the folder.
   * Every file is checked (manifest shape, names, checksums, chunk order) before it is parsed.
   * @throws LookupKnowledgeError `INDEX_NOT_FOUND` / `INDEX_CORRUPT` (run `lookup-knowledge index`), `INDEX_MISMATCH`, `EMBEDDINGS_REQUIRED`.
   */
  static async load(dir: string, options: LoadOptions = {}): Promise<KnowledgeBase> {
    checkFolder("the index folder", dir);
    const deny = checkUnlabelled((options as LoadOptions | null | undefined)?.unlabelled) === "deny";
    const parts = await loadIndexParts(dir, options);
    return new KnowledgeBase(parts, deny, originOf(dir, parts.committedGeneration));
  }
}
