import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { errorDetail, indexUnusable, LookupKnowledgeError } from "../errors.js";
import { Bm25Stats } from "../l0/bm25.js";
import { HintIndex } from "../l0/hint-index.js";
import { LSA_MODEL_FILE, LSA_PROJECTION_FILE, LsaEmbeddings, type LsaModelHeader } from "../l1/embeddings/index.js";
import type { VectorIndex } from "../l1/vector-index.js";
import { TOKENIZER_VERSION } from "../text/tokenize.js";
import type { IndexedFile } from "../corpus/load-corpus.js";
import type { Chunk } from "../types.js";
import { parseJsonFile, readDataFiles, type ReadBytes } from "./index-files.js";
import { INDEX_FILES } from "./index-layout.js";
import type { IndexParts } from "./index-parts.js";
import type { IndexManifest, IndexSettings } from "./manifest.js";
import { attachContents, decodeChunkMeta } from "./chunk-store.js";
import { checkFiles } from "./files-file.js";
import { chunkProblem } from "./resolve-build-options.js";
import { loadVerifiedVectors } from "./vector-file.js";

/**
 * The chunk list, checked in shape and number; contents are attached compressed and inflated
 * when read. The checksums verified every byte against the manifest, so the fingerprint is the
 * manifest's (recomputing it would inflate every chunk).
 */
function readChunks(dir: string, manifest: IndexManifest, contents: Map<string, Buffer>): Chunk[] {
  const metaBytes = contents.get(INDEX_FILES.chunks);
  const contentBytes = contents.get(INDEX_FILES.contents);
  if (metaBytes === undefined || contentBytes === undefined) throw indexUnusable(dir, `${INDEX_FILES.chunks} or ${INDEX_FILES.contents} is not listed in the manifest`);
  let chunks: unknown;
  try {
    chunks = decodeChunkMeta(metaBytes);
  } catch (cause) {
    throw indexUnusable(dir, `${INDEX_FILES.chunks} ${errorDetail(cause)}`, cause);
  }
  if (!Array.isArray(chunks) || chunks.length !== manifest.chunkCount) throw indexUnusable(dir, `${INDEX_FILES.chunks} does not match the manifest`);
  for (const [i, chunk] of chunks.entries()) {
    // The content is attached next; a placeholder lets the shape check run on everything else.
    if (typeof chunk === "object" && chunk !== null) (chunk as Record<string, unknown>).content = "";
    const problem = chunkProblem(chunk);
    if (problem !== null) throw indexUnusable(dir, `${INDEX_FILES.chunks}: chunk ${i} (numbered from 0) ${problem}`);
  }
  try {
    return attachContents(chunks as Record<string, unknown>[], contentBytes);
  } catch (cause) {
    throw indexUnusable(dir, `${INDEX_FILES.contents}: ${errorDetail(cause)}`, cause);
  }
}

function restoreEmbeddings(dir: string, settings: IndexSettings, contents: Map<string, Buffer>, given?: EmbeddingsInterface): EmbeddingsInterface | null {
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
  const projection = contents.get(LSA_PROJECTION_FILE);
  if (projection === undefined) throw indexUnusable(dir, `file ${LSA_PROJECTION_FILE} is not listed in the manifest`);
  const header = parseJsonFile<LsaModelHeader>(dir, contents, LSA_MODEL_FILE);
  try {
    return LsaEmbeddings.deserialize(header, projection);
  } catch (cause) {
    throw indexUnusable(dir, `the embedder model does not load (${errorDetail(cause)})`, cause);
  }
}

async function restoreVectors(dir: string, manifest: IndexManifest, contents: Map<string, Buffer>, chunks: Chunk[]): Promise<VectorIndex> {
  const bytes = contents.get(INDEX_FILES.vectors);
  const { dimensions } = manifest.settings.embedder;
  if (bytes === undefined || dimensions === null) throw indexUnusable(dir, `file ${INDEX_FILES.vectors} is not listed in the manifest`);
  let vectorIndex: VectorIndex;
  try {
    vectorIndex = await loadVerifiedVectors(bytes, dimensions, chunks.map((chunk) => chunk.meta.domain), manifest.settings.hnsw);
  } catch (cause) {
    throw indexUnusable(dir, `the vector index does not load (${errorDetail(cause)})`, cause);
  }
  if (vectorIndex.size !== chunks.length) throw indexUnusable(dir, `the vector index holds ${vectorIndex.size} vectors for ${chunks.length} chunks`);
  return vectorIndex;
}

/** Lets the vector load, which runs step by step on the event loop, advance between synchronous phases. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Loads the generation a checked manifest names, checking every file before it is parsed. */
export async function loadGeneration(dir: string, manifest: IndexManifest, options: { embeddings?: EmbeddingsInterface }, read?: ReadBytes): Promise<IndexParts> {
  if (manifest.settings.tokenizerVersion !== TOKENIZER_VERSION) {
    throw new LookupKnowledgeError(
      "INDEX_MISMATCH",
      `the index in "${dir}" was built with term rules version ${manifest.settings.tokenizerVersion}, this version uses ${TOKENIZER_VERSION}. Run \`lookup-knowledge index --out ${dir}\` to rebuild it.`,
    );
  }
  const contents = await readDataFiles(dir, manifest, read);
  const chunks = readChunks(dir, manifest, contents);
  const embeddings = restoreEmbeddings(dir, manifest.settings, contents, options.embeddings);
  // hnswlib reads its graph off the main thread: the keyword layer is decoded meanwhile.
  const pendingVectors = embeddings !== null && chunks.length > 0 ? restoreVectors(dir, manifest, contents, chunks) : Promise.resolve(null);
  pendingVectors.catch(() => undefined);
  await yieldToEventLoop();
  const bm25Bytes = contents.get(INDEX_FILES.bm25);
  if (bm25Bytes === undefined) throw indexUnusable(dir, `file ${INDEX_FILES.bm25} is not listed in the manifest`);
  let bm25: Bm25Stats;
  try {
    bm25 = Bm25Stats.decode(bm25Bytes);
  } catch (cause) {
    throw indexUnusable(dir, `the keyword index does not load (${errorDetail(cause)})`, cause);
  }
  await yieldToEventLoop();
  if (bm25.size !== chunks.length) throw indexUnusable(dir, `${INDEX_FILES.bm25} holds ${bm25.size} documents for ${chunks.length} chunks`);
  let files: IndexedFile[] | null = null;
  if (contents.has(INDEX_FILES.files)) {
    const checked = checkFiles(parseJsonFile<unknown>(dir, contents, INDEX_FILES.files), chunks);
    if (typeof checked === "string") throw indexUnusable(dir, `${INDEX_FILES.files} ${checked}`);
    files = checked;
  }
  await yieldToEventLoop();
  const hintIndex = HintIndex.build(chunks);
  const vectorIndex = await pendingVectors;
  return { chunks, skipped: manifest.skipped, fileCount: manifest.fileCount, files, hintIndex, bm25, embeddings, vectorIndex, settings: manifest.settings, fingerprint: manifest.fingerprint, history: manifest.history ?? { mode: "full", lsa: embeddings instanceof LsaEmbeddings ? "fitted" : null, changedSinceFit: 0 } };
}
