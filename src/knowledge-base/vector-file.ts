import { statfs } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname } from "node:path";
import { errorMessage, LookupKnowledgeError } from "../errors.js";
import { storedVectorCount, VectorIndex, type LoadedGraph, type VectorIndexOptions } from "../l1/vector-index.js";
import { decodeVectorLabels, encodeVectorLabels } from "../l1/vector-labels.js";
import { fileChecksums } from "./file-checksums.js";
import type { FileChecksums } from "./verified-files.js";
import { withScratchFile } from "./scratch-folders.js";
import { INDEX_FILES, SCRATCH_PREFIX } from "./index-layout.js";

async function diskFull(path: string): Promise<boolean> {
  return statfs(dirname(path)).then(
    (info) => info.bavail === 0,
    () => false,
  );
}

/**
 * Writes hnswlib's file of the graph to `path`, flushes it and checks it: hnswlib reports no
 * error when the disk fills up under it, so the number of vectors it holds is read back. Returns
 * its checksums, computed piece by piece (the file is never held in memory). The label map is
 * its own data file (`vector-labels.bin`, {@link encodeVectorLabels}).
 * @throws Error saying the file is incomplete (and that the disk is full, when it is).
 */
export async function writeVectorFile(vectorIndex: VectorIndex, path: string): Promise<FileChecksums> {
  try {
    await vectorIndex.save(path);
    const stored = await storedVectorCount(path, vectorIndex.dimensions);
    // eslint-disable-next-line no-restricted-syntax -- caught below
    if (stored !== vectorIndex.labelCount) throw new Error(`it holds ${stored} of ${vectorIndex.labelCount} vectors`);
    return await fileChecksums(path, true);
  } catch (cause) {
    if (cause instanceof LookupKnowledgeError) throw cause;
    const full = (await diskFull(path)) ? ": no space left on device (ENOSPC)" : "";
    // eslint-disable-next-line no-restricted-syntax -- the save wraps it into INDEX_WRITE_FAILED
    throw new Error(`${INDEX_FILES.vectors} was not written completely${full} (${errorMessage(cause)})`, { cause });
  }
}

/** The label map of `vectorIndex`, the data file `vector-labels.bin`. */
export function encodeLabelFile(vectorIndex: VectorIndex): Buffer {
  return encodeVectorLabels(vectorIndex.labelMap());
}

/**
 * Hands hnswlib exactly the bytes of an older index's vector file (the graph, followed by the
 * label map): whose checksum was verified: hnswlib only reads from a path, so
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
