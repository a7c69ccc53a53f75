import { mkdtemp, rm, statfs, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { errorMessage } from "../errors.js";
import { VectorIndex, type VectorIndexOptions } from "../l1/vector-index.js";
import { syncAndRead } from "./durable-fs.js";
import { INDEX_FILES } from "./index-layout.js";

async function diskFull(path: string): Promise<boolean> {
  return statfs(dirname(path)).then(
    (info) => info.bavail === 0,
    () => false,
  );
}

/**
 * Writes the HNSW graph to `path`, flushes it and reads it back with hnswlib: hnswlib reports no
 * error when the disk fills up under it, so only a read-back tells a whole file from a cut one.
 * Returns the bytes written, for the checksum.
 * @throws Error saying the file is incomplete (and that the disk is full, when it is).
 */
export async function writeVectorFile(vectorIndex: VectorIndex, path: string, domains: readonly (string | undefined)[]): Promise<Buffer> {
  await vectorIndex.save(path);
  const bytes = await syncAndRead(path);
  try {
    const reread = await VectorIndex.load(path, vectorIndex.dimensions, domains);
    if (reread.size !== vectorIndex.size) throw new Error(`it holds ${reread.size} of ${vectorIndex.size} vectors`);
  } catch (cause) {
    const full = (await diskFull(path)) ? ": no space left on device (ENOSPC)" : "";
    throw new Error(`${INDEX_FILES.vectors} was not written completely${full} (${errorMessage(cause)})`, { cause });
  }
  return bytes;
}

/**
 * Hands hnswlib exactly the bytes whose checksum was verified: hnswlib only reads from a path, so
 * they go to a private scratch folder first, never re-read from the index folder that another
 * process may change meanwhile.
 */
export async function loadVerifiedVectors(bytes: Uint8Array, dimensions: number, domains: readonly (string | undefined)[], options: VectorIndexOptions): Promise<VectorIndex> {
  const scratch = await mkdtemp(join(tmpdir(), "lookup-knowledge-hnsw-"));
  try {
    const file = join(scratch, INDEX_FILES.vectors);
    await writeFile(file, bytes, { mode: 0o600 });
    return await VectorIndex.load(file, dimensions, domains, options);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
