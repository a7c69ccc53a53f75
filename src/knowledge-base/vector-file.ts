import { appendFile, rm, statfs } from "node:fs/promises";
import { dirname, join } from "node:path";
import { errorMessage, LookupKnowledgeError } from "../errors.js";
import { storedVectorCount, VectorIndex, type LoadedGraph, type VectorIndexOptions } from "../l1/vector-index.js";
import { decodeVectorLabels, encodeVectorLabels } from "../l1/vector-labels.js";
import { syncAndRead, writeNewFile } from "./durable-fs.js";
import { makeScratch, sweepDeadScratch } from "./scratch-folders.js";
import { INDEX_FILES } from "./index-layout.js";

/** Where a load hands hnswlib the verified graph: `<tmpdir>/lookup-knowledge-hnsw-<pid>-<random>`. */
const SCRATCH_PREFIX = "lookup-knowledge-hnsw-";

async function diskFull(path: string): Promise<boolean> {
  return statfs(dirname(path)).then(
    (info) => info.bavail === 0,
    () => false,
  );
}

/**
 * Writes the vector file to `path`: hnswlib's graph followed by the label map (the trailer
 * documented in `src/l1/vector-labels.ts`), flushes it and checks it: hnswlib reports no error
 * when the disk fills up under it, so the graph is read back with hnswlib, and the trailer is
 * compared with what was meant to be written. Returns the bytes written, for the checksum.
 * @throws Error saying the file is incomplete (and that the disk is full, when it is).
 */
export async function writeVectorFile(vectorIndex: VectorIndex, path: string, _domains: readonly (string | undefined)[]): Promise<Buffer> {
  const trailer = encodeVectorLabels(vectorIndex.labelMap());
  let bytes: Buffer;
  try {
    await vectorIndex.save(path);
    const stored = await storedVectorCount(path, vectorIndex.dimensions);
    if (stored !== vectorIndex.labelCount) throw new Error(`it holds ${stored} of ${vectorIndex.labelCount} vectors`);
    await appendFile(path, trailer);
    bytes = await syncAndRead(path);
    if (!bytes.subarray(bytes.length - trailer.length).equals(trailer)) throw new Error("its label map was cut short");
  } catch (cause) {
    if (cause instanceof LookupKnowledgeError) throw cause;
    const full = (await diskFull(path)) ? ": no space left on device (ENOSPC)" : "";
    throw new Error(`${INDEX_FILES.vectors} was not written completely${full} (${errorMessage(cause)})`, { cause });
  }
  return bytes;
}

/**
 * Hands hnswlib exactly the bytes whose checksum was verified: hnswlib only reads from a path, so
 * the graph goes to a private scratch folder first, never re-read from the index folder that
 * another process may change meanwhile. The label map is taken from the same bytes and checked
 * against the chunks (`domains` has one entry per chunk); a file without one (written before
 * label maps existed) maps label `i` to chunk `i`. `domains` may still be coming (the chunks are
 * decoded while hnswlib reads); `onReading` is called once hnswlib has started reading.
 * @throws LookupKnowledgeError `INDEX_CORRUPT` when the label map is malformed or does not fit the graph and the chunks.
 */
export async function loadVerifiedVectors(bytes: Uint8Array, dimensions: number, domains: readonly (string | undefined)[] | Promise<readonly (string | undefined)[]>, options: VectorIndexOptions, onReading?: () => void): Promise<VectorIndex> {
  const { graph, chunkOfLabel } = decodeVectorLabels(bytes);
  // Folders of loads that were killed meanwhile go first.
  await sweepDeadScratch(SCRATCH_PREFIX);
  const scratch = await makeScratch(SCRATCH_PREFIX);
  let loaded: LoadedGraph;
  try {
    const file = join(scratch, INDEX_FILES.vectors);
    await writeNewFile(file, graph, 0o600);
    const reading = VectorIndex.readGraph(file, dimensions);
    onReading?.();
    loaded = await reading;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return VectorIndex.fromGraph(loaded, await domains, options, chunkOfLabel ?? undefined);
}
