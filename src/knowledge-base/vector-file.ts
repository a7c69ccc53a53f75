import { appendFile, statfs } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname } from "node:path";
import { errorMessage, LookupKnowledgeError } from "../errors.js";
import { storedVectorCount, VectorIndex, type LoadedGraph, type VectorIndexOptions } from "../l1/vector-index.js";
import { decodeVectorLabels, encodeVectorLabels } from "../l1/vector-labels.js";
import { syncAndRead } from "./durable-fs.js";
import { withScratchFile } from "./scratch-folders.js";
import { INDEX_FILES, SCRATCH_PREFIX } from "./index-layout.js";

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
export async function writeVectorFile(
  vectorIndex: VectorIndex,
  path: string,
  _domains: readonly (string | undefined)[],
): Promise<Buffer> {
  const trailer = encodeVectorLabels(vectorIndex.labelMap());
  let bytes: Buffer;
  try {
    await vectorIndex.save(path);
    const stored = await storedVectorCount(path, vectorIndex.dimensions);
    // eslint-disable-next-line no-restricted-syntax -- caught below
    if (stored !== vectorIndex.labelCount) throw new Error(`it holds ${stored} of ${vectorIndex.labelCount} vectors`);
    await appendFile(path, trailer);
    bytes = await syncAndRead(path);
    // eslint-disable-next-line no-restricted-syntax -- caught below
    if (!bytes.subarray(bytes.length - trailer.length).equals(trailer)) throw new Error("its label map was cut short");
  } catch (cause) {
    if (cause instanceof LookupKnowledgeError) throw cause;
    const full = (await diskFull(path)) ? ": no space left on device (ENOSPC)" : "";
    // eslint-disable-next-line no-restricted-syntax -- the save wraps it into INDEX_WRITE_FAILED
    throw new Error(`${INDEX_FILES.vectors} was not written completely${full} (${errorMessage(cause)})`, { cause });
  }
  return bytes;
}

/**
 * Hands hnswlib exactly the bytes whose checksum was verified: hnswlib only reads from a path, so
 * the graph goes to a private scratch folder first (`<dir>/.lookup-knowledge-scratch-<pid>-*`, else
 * one in the system's temporary folder for a read-only index folder), never re-read from a
 * generation folder that another process may remove meanwhile. The label map is taken from the same bytes and checked
 * against the chunks (`domains` has one entry per chunk); a file without one (written before
 * label maps existed) maps label `i` to chunk `i`. `domains` may still be coming (the chunks are
 * decoded while hnswlib reads); `onReading` is called once hnswlib has started reading.
 * @throws LookupKnowledgeError `INDEX_CORRUPT` when the label map is malformed or does not fit the
 * graph and the chunks; `SCRATCH_UNAVAILABLE` when no scratch folder can be written.
 */
export async function loadVerifiedVectors(
  dir: string,
  bytes: Uint8Array,
  dimensions: number,
  domains: readonly (string | undefined)[] | Promise<readonly (string | undefined)[]>,
  options: VectorIndexOptions,
  onReading?: () => void,
): Promise<VectorIndex> {
  const { graph, chunkOfLabel } = decodeVectorLabels(bytes);
  // In the index folder first: a load must not depend on TMPDIR (missing, full, read-only).
  const loaded: LoadedGraph = await withScratchFile(
    [dir, tmpdir()],
    SCRATCH_PREFIX,
    INDEX_FILES.vectors,
    graph,
    (file) => {
      const reading = VectorIndex.readGraph(file, dimensions);
      onReading?.();
      return reading;
    },
  );
  return VectorIndex.fromGraph(loaded, await domains, options, chunkOfLabel ?? undefined);
}
