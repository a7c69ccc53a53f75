import { tmpdir } from "node:os";
import { join } from "node:path";
import { errorDetail, indexUnusable } from "../errors.js";
import { VectorIndex, type LoadedGraph, type VectorIndexOptions } from "../l1/vector-index.js";
import { decodeLabelFile } from "../l1/vector-labels.js";
import type { DataFiles } from "./index-files.js";
import { INDEX_FILES, SCRATCH_PREFIX } from "./index-layout.js";
import { linkDataFile } from "./link-data-file.js";
import type { IndexManifest } from "./manifest.js";
import { withScratchFile } from "./scratch-folders.js";

/**
 * Loads the vector index of an index whose label map is its own file (`vector-labels.bin`):
 * `vectors.hnsw` is hnswlib's file as it is, so it is given a second name in a private scratch
 * folder (copied only where hard links cannot be made), checked against the manifest there
 * (piece by piece, never held in memory), and only then read by hnswlib, off the main thread.
 * hnswlib never sees a byte the checksum did not pass, and reads a name no other save removes.
 * `domains` may still be coming; `onReading` is called once hnswlib has started reading.
 * @throws LookupKnowledgeError `INDEX_CORRUPT` for a missing, damaged or swapped file or label
 * map; `SCRATCH_UNAVAILABLE` when no scratch folder can be made.
 */
export async function loadLinkedVectors(
  dir: string,
  manifest: IndexManifest,
  files: DataFiles,
  domains: readonly (string | undefined)[] | Promise<readonly (string | undefined)[]>,
  options: VectorIndexOptions,
  onReading?: () => void,
): Promise<VectorIndex> {
  const { dimensions } = manifest.settings.embedder;
  const name = INDEX_FILES.vectors;
  const source = join(dir, manifest.generation, name);
  const loaded: LoadedGraph = await withScratchFile(
    [dir, tmpdir()],
    SCRATCH_PREFIX,
    name,
    (file) => linkDataFile(dir, name, source, file),
    async (file) => {
      await files.checkFile(name, file);
      const reading = VectorIndex.readGraph(file, dimensions ?? 0);
      onReading?.();
      return reading.catch((cause: unknown) => {
        throw indexUnusable(dir, `the vector index does not load (${errorDetail(cause)})`, cause);
      });
    },
  );
  const labels = await files.get(INDEX_FILES.vectorLabels);
  try {
    return VectorIndex.fromGraph(loaded, await domains, options, decodeLabelFile(labels));
  } catch (cause) {
    throw indexUnusable(dir, `the vector index does not load (${errorDetail(cause)})`, cause);
  }
}
