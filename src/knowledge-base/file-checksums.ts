/**
 * Checksums of a file read piece by piece, so that a large data file (the 117 MB vector graph at
 * 100k chunks) is checked without being held in memory.
 */
import { createHash, type Hash } from "node:crypto";
import { open } from "node:fs/promises";
import { crc32 } from "node:zlib";
import type { FileChecksums } from "./verified-files.js";

/** How much of a file one read takes. */
const PIECE_BYTES = 4 * 1024 * 1024;

/** Reads `path` piece by piece into its CRC-32 (and `hash`, when given); `sync` flushes it to the disk first. */
async function scan(path: string, hash: Hash | null, sync: boolean): Promise<string> {
  const handle = await open(path, sync ? "r+" : "r");
  try {
    if (sync) await handle.sync();
    const piece = Buffer.allocUnsafe(PIECE_BYTES);
    let crc = 0;
    for (let at = 0; ;) {
      const { bytesRead } = await handle.read(piece, 0, PIECE_BYTES, at);
      if (bytesRead === 0) break;
      const read = piece.subarray(0, bytesRead);
      crc = crc32(read, crc);
      hash?.update(read);
      at += bytesRead;
    }
    return crc.toString(16).padStart(8, "0");
  } finally {
    await handle.close();
  }
}

/** The CRC-32 of the file `path`, as hex. */
export function fileCrc32(path: string): Promise<string> {
  return scan(path, null, false);
}

/** The SHA-256 and CRC-32 of the file `path`; `sync` flushes it to the disk first (a file a native library wrote). */
export async function fileChecksums(path: string, sync = false): Promise<FileChecksums> {
  const hash = createHash("sha256");
  const crc = await scan(path, hash, sync);
  return { sha256: hash.digest("hex"), crc32: crc };
}
