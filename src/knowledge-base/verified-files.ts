/**
 * Where verified bytes came from: the data files a load read and checked against the manifest,
 * so that a save writing the same bytes again can link the committed file into its new generation
 * instead (an incremental update keeps the 27 MB embedder projection unchanged).
 */
import { link, rm, stat } from "node:fs/promises";
import { crc32Hex } from "./manifest.js";

/** A committed data file whose bytes matched the manifest's checksum, as it was when it was read. */
export interface VerifiedOrigin {
  path: string;
  sha256: string;
  /** Absent for a file of an index saved before CRC-32s were recorded: computed when it is linked. */
  crc32?: string;
  ino: number;
  size: number;
  mtimeMs: number;
}

const origins = new WeakMap<Uint8Array, VerifiedOrigin>();

/** Records that `bytes` (never modified afterwards) are the verified content of `origin.path`. */
export function rememberOrigin(bytes: Uint8Array, origin: VerifiedOrigin): void {
  origins.set(bytes, origin);
}

/** Where `bytes` were read from, when they are a verified data file's own bytes. */
export function originOf(bytes: Uint8Array): VerifiedOrigin | undefined {
  return origins.get(bytes);
}

/** The checksums of a data file, as its manifest records them. */
export interface FileChecksums {
  sha256: string;
  crc32: string;
}

/**
 * Makes `path` a second name of the committed file `bytes` were read from, when there is one and it
 * still has their length; returns its checksums, or null when the bytes must be written instead (no
 * origin, the file is gone or was changed since it was read, the file system has no hard links).
 * A committed generation is never written to, so the linked file holds the verified bytes; its
 * data reached the disk when it was saved, and the new name reaches it with the folder's flush.
 * The two generations then share the file: a copy of an index folder is independent, but writing
 * into a committed file in place (which no save does) would change both.
 */
export async function linkVerified(bytes: Uint8Array, path: string): Promise<FileChecksums | null> {
  const origin = originOf(bytes);
  if (origin === undefined) return null;
  try {
    await link(origin.path, path);
    // The same file, unchanged since it was read: otherwise it is written from the verified bytes.
    const now = await stat(path);
    if (
      now.ino === origin.ino &&
      now.size === origin.size &&
      now.mtimeMs === origin.mtimeMs &&
      origin.size === bytes.length
    )
      return { sha256: origin.sha256, crc32: origin.crc32 ?? crc32Hex(bytes) };
  } catch {
    // Fall through to writing the bytes.
  }
  await rm(path, { force: true });
  return null;
}
