import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { errorDetail, indexUnusable, LookupKnowledgeError } from "../errors.js";
import { Bm25Stats, type Bm25Snapshot } from "../l0/bm25.js";
import { KeywordIndex, type KeywordIndexSnapshot } from "../l0/keyword-index.js";
import { LSA_MODEL_FILE, LSA_PROJECTION_FILE, LsaEmbeddings, type LsaModelHeader } from "../l1/embeddings/index.js";
import type { VectorIndex } from "../l1/vector-index.js";
import { TOKENIZER_VERSION } from "../text/tokenize.js";
import type { Chunk } from "../types.js";
import { parseJsonFile, readDataFiles, type ReadBytes } from "./index-files.js";
import { INDEX_FILES } from "./index-layout.js";
import type { IndexParts } from "./index-parts.js";
import { fingerprintOf, type IndexManifest, type IndexSettings } from "./manifest.js";
import { chunkProblem } from "./resolve-build-options.js";
import { loadVerifiedVectors } from "./vector-file.js";

/** The chunk list, checked in shape, in number and, through the fingerprint, in order. */
function readChunks(dir: string, manifest: IndexManifest, contents: Map<string, Buffer>): Chunk[] {
  const chunks = parseJsonFile<unknown>(dir, contents, INDEX_FILES.chunks);
  if (!Array.isArray(chunks) || chunks.length !== manifest.chunkCount) throw indexUnusable(dir, `${INDEX_FILES.chunks} does not match the manifest`);
  for (const [i, chunk] of chunks.entries()) {
    const problem = chunkProblem(chunk);
    if (problem !== null) throw indexUnusable(dir, `${INDEX_FILES.chunks}: chunk ${i} (numbered from 0) ${problem}`);
  }
  // Chunk numbers are positions in every index: a reordered list would answer with the wrong text.
  if (fingerprintOf(chunks as Chunk[], manifest.settings) !== manifest.fingerprint) {
    throw indexUnusable(dir, `${INDEX_FILES.chunks} does not match the fingerprint in the manifest (chunks changed or reordered)`);
  }
  return chunks as Chunk[];
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
  const keywordSnapshot = parseJsonFile<KeywordIndexSnapshot>(dir, contents, INDEX_FILES.keywordIndex);
  const bm25Snapshot = parseJsonFile<Bm25Snapshot>(dir, contents, INDEX_FILES.bm25);
  let keywordIndex: KeywordIndex;
  let bm25: Bm25Stats;
  try {
    keywordIndex = KeywordIndex.import(keywordSnapshot, chunks.length);
    bm25 = Bm25Stats.fromJSON(bm25Snapshot);
  } catch (cause) {
    throw indexUnusable(dir, `the keyword index does not load (${errorDetail(cause)})`, cause);
  }
  const embeddings = restoreEmbeddings(dir, manifest.settings, contents, options.embeddings);
  const vectorIndex = embeddings !== null && chunks.length > 0 ? await restoreVectors(dir, manifest, contents, chunks) : null;
  return { chunks, skipped: manifest.skipped, fileCount: manifest.fileCount, keywordIndex, bm25, embeddings, vectorIndex, settings: manifest.settings };
}
