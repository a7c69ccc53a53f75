import { randomBytes } from "node:crypto";
import { open, rename, rm, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * Writes all of `data` from the start of a new file in as few requests as it takes (usually one):
 * `FileHandle.writeFile` writes 512 KiB at a time, each piece waiting for a busy event loop.
 */
async function writeAll(handle: FileHandle, data: string | Uint8Array, path: string): Promise<void> {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  let at = 0;
  while (at < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, at, bytes.length - at, at);
    // eslint-disable-next-line no-restricted-syntax -- the save wraps write failures into INDEX_WRITE_FAILED
    if (bytesWritten === 0) throw new Error(`${path}: a write of ${bytes.length - at} bytes wrote nothing`);
    at += bytesWritten;
  }
}

/** Writes `data` to the new file `path` (never an existing one), readable by its owner only when `mode` is 0o600. */
export async function writeNewFile(path: string, data: string | Uint8Array, mode = 0o666): Promise<void> {
  const handle = await open(path, "wx", mode);
  try {
    await writeAll(handle, data, path);
  } finally {
    await handle.close();
  }
}

/** Writes `data` to the new file `path` (never an existing one) and flushes it to the disk. */
export async function writeFileDurably(path: string, data: string | Uint8Array): Promise<void> {
  const handle = await open(path, "wx");
  try {
    await writeAll(handle, data, path);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes a file that something else wrote (a native library) to the disk, and returns its bytes. */
export async function syncAndRead(path: string): Promise<Buffer> {
  const handle = await open(path, "r+");
  try {
    await handle.sync();
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * Flushes a folder's entries (files created, renamed or removed in it) to the disk, so that a
 * rename is durable before anything relies on it. Windows cannot open folders, and needs no flush.
 */
export async function syncFolder(dir: string): Promise<void> {
  if (process.platform === "win32") return;
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * The temp-file-then-rename writer: writes `data` durably to `temporary`, renames it over `path`
 * and flushes the folder, so that a reader (or a crash) sees the old file or the new one, never
 * half of one. `temporary` must be on the same file system as `path` and must not exist; it is
 * removed when the write fails.
 * @default temporary `<path>.<pid>.<random>.tmp`
 */
export async function writeFileAtomically(
  path: string,
  data: string | Uint8Array,
  temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
): Promise<void> {
  try {
    await writeFileDurably(temporary, data);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncFolder(dirname(path));
}
