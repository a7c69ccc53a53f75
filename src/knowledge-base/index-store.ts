import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { mkdir, readFile, rename } from "node:fs/promises";
import { join } from "node:path";
import { LookupKnowledgeError, indexUnusable } from "../errors.js";
import { Bm25Stats, type Bm25Snapshot } from "../l0/bm25.js";
import { KeywordIndex, type KeywordIndexSnapshot } from "../l0/keyword-index.js";
import { LSA_MODEL_FILE, LSA_PROJECTION_FILE, LsaEmbeddings, type LsaModelHeader } from "../l1/embeddings/index.js";
import { VectorIndex } from "../l1/vector-index.js";
import { TOKENIZER_VERSION } from "../text/tokenize.js";
import type { Chunk, SkippedFile } from "../types.js";
import { INDEX_FILES, parseJsonFile, readManifest, verifyChecksums, writeFileAtomically, writeManifest } from "./index-files.js";
import { INDEX_FORMAT_VERSION, sha256, type IndexSettings } from "./manifest.js";

/** Everything a knowledge base is made of. */
export interface IndexParts {
  chunks: Chunk[];
  skipped: SkippedFile[];
  fileCount: number;
  keywordIndex: KeywordIndex;
  bm25: Bm25Stats;
  embeddings: EmbeddingsInterface | null;
  vectorIndex: VectorIndex | null;
  settings: IndexSettings;
}

/** Writes every part, then the manifest with their checksums. */
export async function saveIndexParts(dir: string, parts: IndexParts, info: { fingerprint: string; domains: string[] }): Promise<void> {
  await mkdir(dir, { recursive: true });
  const checksums: Record<string, string> = {};
  const put = async (name: string, data: string | Uint8Array) => {
    await writeFileAtomically(join(dir, name), data);
    checksums[name] = sha256(data);
  };
  await put(INDEX_FILES.chunks, JSON.stringify(parts.chunks));
  await put(INDEX_FILES.keywordIndex, JSON.stringify(parts.keywordIndex.export()));
  await put(INDEX_FILES.bm25, JSON.stringify(parts.bm25.toJSON()));
  if (parts.embeddings instanceof LsaEmbeddings) {
    const { header, projection } = parts.embeddings.serialize();
    await put(LSA_MODEL_FILE, JSON.stringify(header));
    await put(LSA_PROJECTION_FILE, projection);
  }
  if (parts.vectorIndex !== null) {
    const temporary = join(dir, `${INDEX_FILES.vectors}.${process.pid}.tmp`);
    await parts.vectorIndex.save(temporary);
    checksums[INDEX_FILES.vectors] = sha256(await readFile(temporary));
    await rename(temporary, join(dir, INDEX_FILES.vectors));
  }
  await writeManifest(dir, {
    format: "lookup-knowledge-index",
    formatVersion: INDEX_FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    fingerprint: info.fingerprint,
    chunkCount: parts.chunks.length,
    fileCount: parts.fileCount,
    domains: info.domains,
    skipped: parts.skipped,
    settings: parts.settings,
    checksums,
  });
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
  try {
    return LsaEmbeddings.deserialize(parseJsonFile<LsaModelHeader>(dir, contents, LSA_MODEL_FILE), projection);
  } catch (cause) {
    if (cause instanceof LookupKnowledgeError) throw cause;
    throw indexUnusable(dir, `the embedder model does not load (${(cause as Error).message})`, cause);
  }
}

/** Reads a saved index, checking every file before it is parsed; all failures say how to rebuild. */
export async function loadIndexParts(dir: string, options: { embeddings?: EmbeddingsInterface }): Promise<IndexParts> {
  const manifest = await readManifest(dir);
  if (manifest.settings?.tokenizerVersion !== TOKENIZER_VERSION) {
    throw new LookupKnowledgeError(
      "INDEX_MISMATCH",
      `the index in "${dir}" was built with term rules version ${String(manifest.settings?.tokenizerVersion)}, this version uses ${TOKENIZER_VERSION}. Run \`lookup-knowledge index --out ${dir}\` to rebuild it.`,
    );
  }
  const contents = await verifyChecksums(dir, manifest);
  const chunks = parseJsonFile<Chunk[]>(dir, contents, INDEX_FILES.chunks);
  if (!Array.isArray(chunks) || chunks.length !== manifest.chunkCount) throw indexUnusable(dir, "chunks.json does not match the manifest");
  let keywordIndex: KeywordIndex;
  let bm25: Bm25Stats;
  try {
    keywordIndex = KeywordIndex.import(parseJsonFile<KeywordIndexSnapshot>(dir, contents, INDEX_FILES.keywordIndex), chunks.length);
    bm25 = Bm25Stats.fromJSON(parseJsonFile<Bm25Snapshot>(dir, contents, INDEX_FILES.bm25));
  } catch (cause) {
    if (cause instanceof LookupKnowledgeError) throw cause;
    throw indexUnusable(dir, `the keyword index does not load (${(cause as Error).message})`, cause);
  }
  const embeddings = restoreEmbeddings(dir, manifest.settings, contents, options.embeddings);
  let vectorIndex: VectorIndex | null = null;
  const dimensions = manifest.settings.embedder.dimensions;
  if (embeddings !== null && chunks.length > 0) {
    if (!contents.has(INDEX_FILES.vectors) || dimensions === null) throw indexUnusable(dir, `file ${INDEX_FILES.vectors} is not listed in the manifest`);
    try {
      vectorIndex = await VectorIndex.load(join(dir, INDEX_FILES.vectors), dimensions, chunks.map((chunk) => chunk.meta.domain), manifest.settings.hnsw);
    } catch (cause) {
      throw indexUnusable(dir, `the vector index does not load (${(cause as Error).message})`, cause);
    }
    if (vectorIndex.size !== chunks.length) throw indexUnusable(dir, `the vector index holds ${vectorIndex.size} vectors for ${chunks.length} chunks`);
  }
  return { chunks, skipped: manifest.skipped, fileCount: manifest.fileCount, keywordIndex, bm25, embeddings, vectorIndex, settings: manifest.settings };
}
