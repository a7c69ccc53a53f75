import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage, LookupKnowledgeError } from "../errors.js";
import { syncFolder, writeFileDurably } from "./durable-fs.js";
import { assertIndexFolder, collectGarbage, markWriting, unmarkWriting } from "./index-folder.js";
import { INDEX_FILES, newGenerationName, STAGED_MANIFEST } from "./index-layout.js";
import { crc32Hex, sha256, type DataFileHead, type IndexManifest } from "./manifest.js";
import { linkVerified, type FileChecksums } from "./verified-files.js";
import type { SaveOptions, SaveStep } from "./save-options.js";
import { makeFolders } from "../make-folders.js";

/** One data file of an index and how to write it. */
export interface IndexFile {
  name: string;
  /**
   * Writes the new file `path`, flushed to the disk, and returns the bytes it holds (for the
   * checksums), or the checksums when they are known (a file linked from a verified one).
   */
  write: (path: string) => Promise<string | Uint8Array | FileChecksums>;
  /**
   * The length of the head of the written bytes a load reads on its own (see
   * `IndexManifest.heads`); absent for files a load reads whole.
   */
  headLength?: (data: Uint8Array) => number;
}

/**
 * A data file whose bytes `serialize` returns, serialised only when its turn to be written comes;
 * bytes a load verified are linked from the file they were read from instead of written again.
 */
export function serializedFile(
  name: string,
  serialize: () => string | Uint8Array,
  headLength?: (data: Uint8Array) => number,
): IndexFile {
  return {
    name,
    ...(headLength !== undefined ? { headLength } : {}),
    async write(path) {
      const data = serialize();
      const linked = typeof data === "string" ? null : await linkVerified(data, path);
      if (linked !== null) return linked;
      await writeFileDurably(path, data);
      return data;
    },
  };
}

function writeFailed(dir: string, error: unknown, committed: boolean): LookupKnowledgeError {
  if (error instanceof LookupKnowledgeError) return error;
  const outcome = committed
    ? "the new index is in place but may not be on the disk yet"
    : "the previous index there, if any, is unchanged";
  return new LookupKnowledgeError(
    "INDEX_WRITE_FAILED",
    `could not write the index into "${dir}" (${errorMessage(error)}); ${outcome}.`,
    { cause: error },
  );
}

/**
 * Saves an index into `dir` so that, at any point a process may die, the folder holds the
 * complete previous index or the complete new one. Every data file goes into a fresh generation
 * folder, each flushed; the manifest naming it is staged inside it, flushed, and renamed over
 * `manifest.json`: the single commit point. Old generations and leftovers of killed saves are
 * removed before and after. A failure before the commit removes the partial generation. With
 * `options.lock`, the lock is checked to be still held just before the commit. Returns the
 * committed generation.
 * @throws LookupKnowledgeError `INDEX_WRITE_FAILED` naming the folder and the cause; `INDEX_LOCKED` when the lock was lost.
 */
export async function writeIndexFolder(
  dir: string,
  files: readonly IndexFile[],
  manifestFor: (
    generation: string,
    checksums: Record<string, string>,
    crc32: Record<string, string>,
    heads: Record<string, DataFileHead>,
  ) => IndexManifest,
  options: SaveOptions = {},
): Promise<string> {
  const total = files.length + 3;
  let done = 0;
  const report = (step: SaveStep, file?: string) =>
    options.onProgress?.({ phase: "save", step, ...(file === undefined ? {} : { file }), done, total });
  const warn = (problems: string[]) =>
    problems.forEach((problem) => options.onWarning?.(`lookup-knowledge: ${problem}`));
  const generation = newGenerationName();
  const folder = join(dir, generation);
  let marked = false;
  let committed = false;
  try {
    await assertIndexFolder(dir);
    await makeFolders(dir);
    warn(await collectGarbage(dir, (name) => report("remove", name)));
    report("collect");
    await markWriting(dir, generation);
    marked = true;
    await mkdir(folder);
    // One file after the other: a disk that fills up fails the file that ran out of room.
    const checksums: Record<string, string> = {};
    const crc32: Record<string, string> = {};
    const heads: Record<string, DataFileHead> = {};
    for (const file of files) {
      const written = await file.write(join(folder, file.name));
      const known = typeof written === "object" && "sha256" in written ? written : null;
      checksums[file.name] = known?.sha256 ?? sha256(written as string | Uint8Array);
      crc32[file.name] = known?.crc32 ?? crc32Hex(written as string | Uint8Array);
      // A linked file has no head recorded: a load reads it whole.
      if (file.headLength !== undefined && written instanceof Uint8Array) {
        const bytes = file.headLength(written);
        heads[file.name] = { size: written.length, bytes, crc32: crc32Hex(written.subarray(0, bytes)) };
      }
      done += 1;
      report("write", file.name);
    }
    const staged = join(folder, STAGED_MANIFEST);
    await writeFileDurably(staged, `${JSON.stringify(manifestFor(generation, checksums, crc32, heads), null, 2)}\n`);
    await syncFolder(folder);
    await syncFolder(dir);
    done += 1;
    report("stage");
    // A stale-lock take-over by another writer must not let two writers commit.
    await options.lock?.assertHeld();
    await rename(staged, join(dir, INDEX_FILES.manifest));
    committed = true;
    await syncFolder(dir);
  } catch (error) {
    if (marked && !committed) await rm(folder, { recursive: true, force: true }).catch(() => undefined);
    throw writeFailed(dir, error, committed);
  } finally {
    if (marked)
      await unmarkWriting(dir, generation).catch((error: unknown) =>
        warn([`cannot remove the writer marker of ${generation} (${errorMessage(error)})`]),
      );
  }
  done += 1;
  report("commit");
  warn(await collectGarbage(dir, (name) => report("remove", name)));
  done += 1;
  report("cleanup");
  return generation;
}
