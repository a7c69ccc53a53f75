import { constants } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { LookupKnowledgeError } from "../errors.js";
import { invalidCorpusFile } from "./corpus-file-error.js";
import { describeFileKind, describeFsError } from "./fs-reasons.js";
import type { CorpusFile } from "./walk-corpus.js";

/**
 * Never blocks on a FIFO or a device (O_NONBLOCK), never becomes a controlling terminal, and never
 * follows a symlink put where the listed real path was (O_NOFOLLOW, where the platform has it).
 */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** Bytes read per call. */
const READ_CHUNK = 1024 * 1024;

const CHANGED = "the file changed while the corpus was read (replaced or swapped for a symlink); index again";

function tooLarge(size: number, maxBytes: number): LookupKnowledgeError {
  return invalidCorpusFile(`too large: ${size} bytes, more than maxFileBytes (${maxBytes}); raise corpus.maxFileBytes to index it`);
}

async function readAtMost(handle: FileHandle, maxBytes: number): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  let total = 0;
  for (;;) {
    const buffer = Buffer.allocUnsafe(Math.min(READ_CHUNK, maxBytes + 1 - total));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) return Buffer.concat(parts, total);
    parts.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) throw tooLarge(total, maxBytes);
  }
}

/**
 * Reads one listed corpus file, at most `maxBytes`. The file is opened without blocking and its
 * handle checked before any read: it must still be a regular file, and the same one (device and
 * inode) that was listed, so a file swapped for a FIFO, a device or a symlink to somewhere else
 * between listing and reading is refused instead of read or waited on.
 * @throws LookupKnowledgeError `CORPUS_FILE_INVALID` with the reason, for any failure.
 */
export async function readCorpusFile(entry: CorpusFile, maxBytes: number): Promise<Uint8Array> {
  let handle: FileHandle;
  try {
    handle = await open(entry.path, OPEN_FLAGS);
  } catch (error) {
    const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
    throw invalidCorpusFile(code === "ELOOP" ? CHANGED : `cannot be read: ${describeFsError(error)}`, error);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw invalidCorpusFile(`not a regular file (${describeFileKind(info)})`);
    if (info.dev !== entry.dev || info.ino !== entry.ino) throw invalidCorpusFile(CHANGED);
    if (info.size > maxBytes) throw tooLarge(info.size, maxBytes);
    return await readAtMost(handle, maxBytes);
  } catch (error) {
    if (error instanceof LookupKnowledgeError) throw error;
    throw invalidCorpusFile(`cannot be read: ${describeFsError(error)}`, error);
  } finally {
    await handle.close().catch(() => {});
  }
}
