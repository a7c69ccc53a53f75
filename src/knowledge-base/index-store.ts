import { LookupKnowledgeError } from "../errors.js";
import { LSA_MODEL_FILE, LSA_PROJECTION_FILE, LsaEmbeddings } from "../l1/embeddings/index.js";
import { readManifest, readWholeFile, type ReadBytes } from "./index-files.js";
import { INDEX_FILES } from "./index-layout.js";
import type { IndexParts } from "./index-parts.js";
import { loadGeneration, type LoadOptions } from "./load-generation.js";
import { INDEX_FORMAT_VERSION } from "./manifest.js";
import type { SaveOptions } from "./save-options.js";
import { encodeChunkMeta } from "./chunk-meta-codec.js";
import { contentsHeadLength, encodeContents } from "./chunk-store.js";
import { serializeFiles } from "./files-file.js";
import { encodeLabelFile, writeVectorFile } from "./vector-file.js";
import { recordedOrigin } from "./corpus-origin.js";
import { planStoreSave, pruneAfterSave, storeRecord } from "./vector-store-save.js";
import { serializedFile, writeIndexFolder, type IndexFile } from "./write-index-folder.js";

export type { IndexParts } from "./index-parts.js";

/** Collaborators of {@link loadIndexParts}, injectable for tests. */
export interface LoadDeps {
  /** Reads one data file. @default `readWholeFile` (regular files only) */
  readFile?: ReadBytes;
}

/** The data files of `parts`, in the order a save writes them. */
function indexFiles(parts: IndexParts): IndexFile[] {
  const files = [
    serializedFile(INDEX_FILES.chunks, () => encodeChunkMeta(parts.chunks)),
    serializedFile(INDEX_FILES.contents, () => encodeContents(parts.chunks), contentsHeadLength),
    serializedFile(INDEX_FILES.bm25, () => parts.bm25.encode()),
  ];
  const { files: indexed } = parts;
  if (indexed !== null) files.push(serializedFile(INDEX_FILES.files, () => serializeFiles(indexed)));
  const { embeddings, vectorIndex } = parts;
  if (embeddings instanceof LsaEmbeddings) {
    const model = embeddings.serialize();
    files.push(
      serializedFile(LSA_MODEL_FILE, () => JSON.stringify(model.header)),
      serializedFile(LSA_PROJECTION_FILE, () => model.projection),
    );
  }
  if (vectorIndex !== null)
    files.push(
      { name: INDEX_FILES.vectors, write: (path) => writeVectorFile(vectorIndex, path) },
      serializedFile(INDEX_FILES.vectorLabels, () => encodeLabelFile(vectorIndex)),
    );
  return files;
}

/**
 * Saves every part into a new generation folder of `dir` and commits it with the manifest, so
 * that the folder holds the previous index or this one at every moment (see `write-index-folder.ts`);
 * returns the committed generation.
 * @throws LookupKnowledgeError `INDEX_WRITE_FAILED`.
 */
export async function saveIndexParts(
  dir: string,
  parts: IndexParts,
  info: { fingerprint: string; domains: string[] },
  options: SaveOptions = {},
): Promise<string> {
  const store = parts.vectorStore;
  const plan = await planStoreSave(dir, parts);
  const generation = await writeIndexFolder(
    dir,
    indexFiles(parts),
    (generation, checksums, crc32, heads) => ({
      format: "lookup-knowledge-index",
      formatVersion: INDEX_FORMAT_VERSION,
      generation,
      createdAt: new Date().toISOString(),
      fingerprint: info.fingerprint,
      chunkCount: parts.chunks.length,
      fileCount: parts.fileCount,
      domains: info.domains,
      skipped: parts.skipped,
      settings: parts.settings,
      history: parts.history,
      calibration: parts.calibration,
      ...(parts.corpus ? { corpus: recordedOrigin(parts.corpus, dir) } : {}),
      ...(store && plan ? { vectorStore: storeRecord(store, plan) } : {}),
      checksums,
      crc32,
      ...(Object.keys(heads).length > 0 ? { heads } : {}),
    }),
    options,
  );
  // Committed: the rows it no longer reads can go (a failure is a warning; the next save retries).
  if (store !== null && plan !== null) {
    const warning = await pruneAfterSave(store, plan, { onWarning: options.onWarning });
    if (warning !== null) options.onWarning?.(warning);
  }
  return generation;
}

/** How many times a load starts again when saves keep swapping the generation under it. */
const MAX_LOAD_ATTEMPTS = 5;

/**
 * Reads a saved index, checking the manifest's shape and every file before it is parsed; all
 * failures say how to rebuild. When a save swaps generations while this reads (a file vanished
 * because the manifest changed meanwhile), the manifest is read again and the load starts over,
 * up to {@link MAX_LOAD_ATTEMPTS} times.
 */
export async function loadIndexParts(dir: string, options: LoadOptions, deps: LoadDeps = {}): Promise<IndexParts> {
  const read = deps.readFile ?? readWholeFile;
  let current = await readManifest(dir);
  for (let attempt = 1; ; attempt++) {
    try {
      return {
        ...(await loadGeneration(dir, current.manifest, options, read)),
        committedGeneration: current.manifest.generation,
      };
    } catch (error) {
      if (!(error instanceof LookupKnowledgeError) || attempt >= MAX_LOAD_ATTEMPTS) throw error;
      const again = await readManifest(dir).catch(() => null);
      if (again === null || again.text === current.text) throw error;
      current = again;
    }
  }
}
