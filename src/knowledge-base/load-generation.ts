import type { UnlabelledPolicy } from "../access/access-scope.js";
import { reconnectVectorStore } from "./reconnect-vector-store.js";
import type { VectorStoreL1Option } from "./vector-store-option.js";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { errorDetail, errorMessage, indexUnusable, LookupKnowledgeError } from "../errors.js";
import { Bm25Stats } from "../l0/bm25.js";
import { HintIndex } from "../l0/hint-index.js";
import { LSA_MODEL_FILE, LSA_PROJECTION_FILE, LsaEmbeddings, type LsaModelHeader } from "../l1/embeddings/index.js";
import { adoptLsaModel } from "../l1/embeddings/lsa-embeddings.js";
import type { VectorIndex } from "../l1/vector-index.js";
import { TOKENIZER_VERSION } from "../text/tokenize.js";
import type { IndexedFile } from "../corpus/load-corpus.js";
import type { Chunk } from "../types.js";
import { DataFiles, parseJsonFile, type ReadBytes } from "./index-files.js";
import { INDEX_FILES } from "./index-layout.js";
import type { IndexParts } from "./index-parts.js";
import type { IndexManifest, IndexSettings } from "./manifest.js";
import { decodeChunkMeta, type ChunkFields } from "./chunk-meta-codec.js";
import { attachContents } from "./chunk-store.js";
import { contentFileToOpen, openContentFile, type ContentFileChecks } from "./content-file.js";
import { checkFiles } from "./files-file.js";
import { loadVerifiedVectors } from "./vector-file.js";
import { loadLinkedVectors } from "./linked-vectors.js";

/** The chunk list without contents, checked in shape and number against the manifest. */
async function readChunkFields(dir: string, manifest: IndexManifest, files: DataFiles): Promise<ChunkFields[]> {
  const bytes = await files.get(INDEX_FILES.chunks);
  try {
    return decodeChunkMeta(bytes, manifest.chunkCount);
  } catch (cause) {
    throw indexUnusable(dir, `${INDEX_FILES.chunks}: ${errorDetail(cause)}`, cause);
  }
}

/**
 * The chunks, their contents attached compressed and inflated when read. The checksums verified
 * every byte against the manifest, so the fingerprint is the manifest's (recomputing it would
 * inflate every chunk).
 */
async function attachChunkContents(
  dir: string,
  fields: ChunkFields[],
  files: DataFiles,
  onDisk: { path: string; checks: ContentFileChecks } | null,
): Promise<Chunk[]> {
  try {
    if (onDisk !== null) return openContentFile(onDisk.path, fields, onDisk.checks);
    return attachContents(fields, await files.get(INDEX_FILES.contents));
  } catch (cause) {
    if (cause instanceof LookupKnowledgeError && cause.code !== "INDEX_CORRUPT") throw cause;
    const code = (cause as { code?: unknown } | null)?.code;
    // A file gone with its generation (a save swapped it) lets the load start over.
    if (code === "ENOENT") throw indexUnusable(dir, `file ${INDEX_FILES.contents} is missing`, cause);
    const detail =
      cause instanceof LookupKnowledgeError ? errorDetail(cause) : `cannot be read (${errorMessage(cause)})`;
    throw indexUnusable(dir, `${INDEX_FILES.contents}: ${detail}`, cause);
  }
}

/** The embeddings L1 uses: the caller's, or the saved statistical model; null for an L0-only index. */
async function restoreEmbeddings(
  dir: string,
  settings: IndexSettings,
  files: DataFiles,
  given?: EmbeddingsInterface,
): Promise<EmbeddingsInterface | null> {
  const { embedder } = settings;
  if (embedder.kind === "none") return null;
  if (embedder.kind === "statistical-lsa" && given !== undefined && !(given instanceof LsaEmbeddings)) {
    throw new LookupKnowledgeError(
      "INDEX_MISMATCH",
      `the index in "${dir}" was built with the built-in statistical embedder, whose model is saved with it; load it without \`embeddings\`, or build a new index with yours.`,
    );
  }
  if (given !== undefined) return given;
  if (embedder.kind === "custom") {
    throw new LookupKnowledgeError(
      "EMBEDDINGS_REQUIRED",
      `the index in "${dir}" was built with custom embeddings (${embedder.name ?? "unknown"}); pass the same embeddings to KnowledgeBase.load(dir, { embeddings }).`,
    );
  }
  const header = await parseJsonFile<LsaModelHeader>(dir, files, LSA_MODEL_FILE);
  const projection = await files.get(LSA_PROJECTION_FILE);
  try {
    const model = adoptLsaModel(header, projection);
    if (model.dimensions !== embedder.dimensions)
      // eslint-disable-next-line no-restricted-syntax -- caught below and reported as indexUnusable
      throw new Error(
        `it makes vectors of ${model.dimensions} dimensions, the manifest says ${String(embedder.dimensions)}`,
      );
    // The model's encoding is the verified bytes themselves: a save may link their file again.
    return model;
  } catch (cause) {
    throw indexUnusable(dir, `the embedder model does not load (${errorDetail(cause)})`, cause);
  }
}

/** The vector index of an older index, whose `vectors.hnsw` ends with the label map. */
async function loadTrailerVectors(
  dir: string,
  dimensions: number,
  bytes: Uint8Array,
  domains: Promise<readonly (string | undefined)[]>,
  manifest: IndexManifest,
  reading: () => void,
): Promise<VectorIndex> {
  try {
    return await loadVerifiedVectors(dir, bytes, dimensions, domains, manifest.settings.hnsw, reading);
  } catch (cause) {
    // An environment failure is not a damaged index: rebuilding would not help.
    if (cause instanceof LookupKnowledgeError && cause.code === "SCRATCH_UNAVAILABLE") throw cause;
    throw indexUnusable(dir, `the vector index does not load (${errorDetail(cause)})`, cause);
  }
}

/** The vector index, read by hnswlib off the main thread; `started` settles once hnswlib reads. */
function restoreVectors(
  dir: string,
  manifest: IndexManifest,
  files: DataFiles,
  chunks: Promise<Chunk[]>,
): { started: Promise<void>; done: Promise<VectorIndex> } {
  let reading: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (reading = resolve));
  const done = (async () => {
    const { dimensions } = manifest.settings.embedder;
    if (dimensions === null) throw indexUnusable(dir, "the manifest gives no embedding dimensions for its vectors");
    const domains = chunks.then((list) => list.map((chunk) => chunk.meta.domain));
    domains.catch(() => undefined);
    const vectorIndex = files.has(INDEX_FILES.vectorLabels)
      ? await loadLinkedVectors(dir, manifest, files, domains, manifest.settings.hnsw, reading)
      : await loadTrailerVectors(dir, dimensions, await files.get(INDEX_FILES.vectors), domains, manifest, reading);
    if (vectorIndex.size !== manifest.chunkCount)
      throw indexUnusable(dir, `the vector index holds ${vectorIndex.size} vectors for ${manifest.chunkCount} chunks`);
    return vectorIndex;
  })();
  // Awaited by the load once the rest is decoded; a load that fails first leaves it unobserved. One
  // that fails before hnswlib starts reading must not wait for it.
  done.then(reading, reading);
  return { started, done };
}

/** Lets the reads and the vector load, which advance step by step on the event loop, go on between synchronous phases. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Options of `KnowledgeBase.load`. */
export interface LoadOptions {
  /** The embeddings the index was built with, when they were custom ones. @default the saved statistical embedder */
  embeddings?: EmbeddingsInterface;
  /** The vector store that holds L1, for an index built with one (the manifest names it). @default none */
  vectorStore?: VectorStoreL1Option;
  /**
   * With `vectorStore`: also load the local HNSW graph the build saved, which `update` then
   * reuses instead of embedding every chunk again. Serving instances leave it out and save its
   * memory; the machine that updates the index sets it (the CLI's `index` does).
   * @default false
   */
  localVectors?: boolean;
  /**
   * `"deny"` makes files without an `access` field readable by no scope, whatever the index was
   * built with; a load can only narrow access, so `"allow"` keeps the index's own policy.
   * @default the policy the index was built with
   */
  unlabelled?: UnlabelledPolicy;
  /**
   * Check every byte of every data file against its SHA-256 as well as its CRC-32 before it is
   * parsed, as `lookup-knowledge verify` does (the CRC-32 alone catches a truncated, damaged or
   * swapped file; the SHA-256 is the slower, stronger check of Lucene's CheckIndex kind).
   * @default false
   */
  verify?: boolean;
  /**
   * Where the chunk texts stay once loaded. `"disk"`: `contents.bin` is opened, not read; its head
   * is checked now and each text is read (and checked against its digest) when it is first asked
   * for, so the process holds only the texts it returns, but keeps the file open while the loaded
   * base is reachable (a folder on it cannot be unmounted until then). `"memory"`: the file is read
   * whole and checked now. `"auto"`: on disk from a `contents.bin` of 16 MiB (about 25k SciFact chunks), in
   * memory below (16 MiB, about 25k SciFact chunks). Indexes saved before the head was recorded, and loads with `verify`, read it whole.
   * @default "auto"
   */
  texts?: "auto" | "disk" | "memory";
}

/** Loads the generation a checked manifest names, checking every file before it is parsed. */
export async function loadGeneration(
  dir: string,
  manifest: IndexManifest,
  options: LoadOptions,
  read: ReadBytes,
): Promise<IndexParts> {
  if (manifest.settings.tokenizerVersion !== TOKENIZER_VERSION) {
    throw new LookupKnowledgeError(
      "INDEX_MISMATCH",
      `the index in "${dir}" was built with term rules version ${manifest.settings.tokenizerVersion}, this version uses ${TOKENIZER_VERSION}. Run \`lookup-knowledge index --out ${dir}\` to rebuild it.`,
    );
  }
  // L1 in a vector store: the local graph (kept for updates) is not loaded.
  const vectorStore = reconnectVectorStore(dir, manifest, options.vectorStore);
  // The vector graph, the largest file, starts first, and hnswlib reads it while the rest is decoded:
  // asynchronous reads advance only when the main thread is free.
  // A store-backed load leaves the local graph unread unless it asks for it (to update), and a
  // store-backed index saved by such a load has none.
  const skipVectors =
    vectorStore !== null && (options.localVectors !== true || !Object.hasOwn(manifest.checksums, INDEX_FILES.vectors));
  // An index whose label map is its own file hands hnswlib `vectors.hnsw` where it lies: it is
  // checked piece by piece, never read into memory.
  const linkedVectors = Object.hasOwn(manifest.checksums, INDEX_FILES.vectorLabels);
  const contentFile = contentFileToOpen(dir, manifest, options);
  const files = new DataFiles(
    dir,
    manifest,
    read,
    [INDEX_FILES.chunks, INDEX_FILES.vectors, INDEX_FILES.contents],
    [
      ...(skipVectors ? [INDEX_FILES.vectors, INDEX_FILES.vectorLabels] : linkedVectors ? [INDEX_FILES.vectors] : []),
      ...(contentFile !== null ? [INDEX_FILES.contents] : []),
    ],
    options.verify === true ? "verify" : "open",
  );
  const fields = readChunkFields(dir, manifest, files);
  fields.catch(() => undefined);
  // The vector load needs the chunks' domains only at its end: it gets them once they are decoded.
  let chunksDecoded: (chunks: Chunk[]) => void = () => undefined;
  let chunksFailed: (error: unknown) => void = () => undefined;
  const chunksPromise = new Promise<Chunk[]>((resolve, reject) => ((chunksDecoded = resolve), (chunksFailed = reject)));
  chunksPromise.catch(() => undefined);
  const vectors =
    !skipVectors && manifest.settings.embedder.kind !== "none" && manifest.chunkCount > 0
      ? restoreVectors(dir, manifest, files, chunksPromise)
      : null;
  let chunks: Chunk[];
  let embeddings: EmbeddingsInterface | null;
  try {
    const decoded = await fields;
    await vectors?.started;
    chunks = await attachChunkContents(dir, decoded, files, contentFile);
    chunksDecoded(chunks);
    embeddings = await restoreEmbeddings(dir, manifest.settings, files, options.embeddings);
  } catch (error) {
    chunksFailed(error);
    throw error;
  }
  const pendingVectors = embeddings !== null && vectors !== null ? vectors.done : Promise.resolve(null);
  const bm25Bytes = await files.get(INDEX_FILES.bm25);
  let bm25: Bm25Stats;
  try {
    bm25 = Bm25Stats.decode(bm25Bytes);
  } catch (cause) {
    throw indexUnusable(dir, `the keyword index does not load (${errorDetail(cause)})`, cause);
  }
  if (bm25.size !== chunks.length)
    throw indexUnusable(dir, `${INDEX_FILES.bm25} holds ${bm25.size} documents for ${chunks.length} chunks`);
  let indexedFiles: IndexedFile[] | null = null;
  if (files.has(INDEX_FILES.files)) {
    const checked = checkFiles(await parseJsonFile<unknown>(dir, files, INDEX_FILES.files), chunks);
    if (typeof checked === "string") throw indexUnusable(dir, `${INDEX_FILES.files} ${checked}`);
    indexedFiles = checked;
  }
  await yieldToEventLoop();
  const hintIndex = HintIndex.build(chunks);
  const vectorIndex = await pendingVectors;
  return {
    chunks,
    skipped: manifest.skipped,
    fileCount: manifest.fileCount,
    files: indexedFiles,
    corpus: manifest.corpus ?? null,
    hintIndex,
    bm25,
    embeddings,
    vectorIndex,
    settings: manifest.settings,
    fingerprint: manifest.fingerprint,
    history: manifest.history ?? {
      mode: "full",
      lsa: embeddings instanceof LsaEmbeddings ? "fitted" : null,
      changedSinceFit: 0,
    },
    calibration: manifest.calibration,
    vectorStore,
  };
}
