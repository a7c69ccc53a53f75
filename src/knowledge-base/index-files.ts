import { constants } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage, indexUnusable, LookupKnowledgeError } from "../errors.js";
import { INDEX_FILES } from "./index-layout.js";
import { manifestProblem } from "./manifest-shape.js";
import { crc32Hex, INDEX_FORMAT_VERSION, sha256, type IndexManifest } from "./manifest.js";
import { fileChecksums, fileCrc32 } from "./file-checksums.js";
import { rememberOrigin } from "./verified-files.js";

/** Reads a file's bytes; injectable so that tests can act between the reads of one load. */
export type ReadBytes = (path: string) => Promise<Buffer>;

/** A checked manifest and the exact text it was parsed from (to notice a swap by another save). */
export interface ManifestRead {
  text: string;
  manifest: IndexManifest;
}

/**
 * Reads `manifest.json` and checks its whole shape before any field is used; every failure says
 * to run `lookup-knowledge index`.
 */
export async function readManifest(dir: string): Promise<ManifestRead> {
  let text: string;
  let handle: FileHandle;
  try {
    // Non-blocking, and checked to be a file: a FIFO named manifest.json would wait for a writer.
    handle = await open(join(dir, INDEX_FILES.manifest), constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (cause) {
    throw indexUnusable(dir, `missing ${INDEX_FILES.manifest}`, cause);
  }
  try {
    if (!(await handle.stat()).isFile()) throw indexUnusable(dir, `${INDEX_FILES.manifest} is not a regular file`);
    text = await handle.readFile("utf8");
  } catch (cause) {
    throw cause instanceof LookupKnowledgeError ? cause : indexUnusable(dir, `missing ${INDEX_FILES.manifest}`, cause);
  } finally {
    await handle.close();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw indexUnusable(dir, `${INDEX_FILES.manifest} is not valid JSON`, cause);
  }
  const head = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
  if (head.format !== "lookup-knowledge-index" || head.formatVersion !== INDEX_FORMAT_VERSION) {
    throw indexUnusable(dir, `${INDEX_FILES.manifest} is not a version ${INDEX_FORMAT_VERSION} lookup-knowledge index`);
  }
  const problem = manifestProblem(parsed);
  if (problem !== null) throw indexUnusable(dir, problem);
  return { text, manifest: parsed as IndexManifest };
}

/**
 * Reads a whole regular file in as few requests as it takes (usually one). `fs.readFile` reads in
 * 512 KiB pieces, each of which waits for the event loop: while a load parses one file on the main
 * thread, reading another would stall. Anything but a regular file is refused before it is read:
 * a FIFO would block, a symbolic link to a device would never end. The file's identity as it was
 * read is kept for {@link readStampOf}.
 * @throws Error for a file that is not a regular file, or cannot be opened or read.
 */
export async function readWholeFile(path: string): Promise<Buffer> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0));
  try {
    const info = await handle.stat();
    // eslint-disable-next-line no-restricted-syntax -- callers wrap read failures into INDEX_CORRUPT
    if (!info.isFile()) throw new Error(`${path} is not a regular file`);
    const data = Buffer.allocUnsafe(info.size);
    let at = 0;
    while (at < info.size) {
      const { bytesRead } = await handle.read(data, at, info.size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    // A file that shrank while it was read is returned as read; its checksum tells.
    const read = at === info.size ? data : data.subarray(0, at);
    readStamps.set(read, { ino: info.ino, size: info.size, mtimeMs: info.mtimeMs });
    return read;
  } finally {
    await handle.close();
  }
}

/** The inode, size and modification time a file had when {@link readWholeFile} read it. */
export interface ReadStamp {
  ino: number;
  size: number;
  mtimeMs: number;
}

const readStamps = new WeakMap<Uint8Array, ReadStamp>();

/** How the file `bytes` were read from was when it was read; undefined for bytes read otherwise. */
export function readStampOf(bytes: Uint8Array): ReadStamp | undefined {
  return readStamps.get(bytes);
}

/**
 * How a load checks each data file: `"open"` by its CRC-32 (by its SHA-256 in an index saved
 * before CRC-32s were recorded), `"verify"` by both, as `lookup-knowledge verify` does.
 */
export type FileCheck = "open" | "verify";

/** True when `data` matches the manifest's checksums for `name` that `check` asks for. */
function matchesManifest(manifest: IndexManifest, name: string, data: Uint8Array, check: FileCheck): boolean {
  const crc32 = manifest.crc32?.[name];
  if (crc32 !== undefined && crc32Hex(data) !== crc32) return false;
  return (crc32 !== undefined && check === "open") || sha256(data) === manifest.checksums[name];
}

/** The data files of one generation, each read and checked against its checksum as it arrives. */
export class DataFiles {
  readonly #dir: string;
  readonly #manifest: IndexManifest;
  readonly #check: FileCheck;
  readonly #files = new Map<string, Promise<Buffer>>();

  /**
   * Starts reading every data file the manifest lists from its generation folder, each checked
   * as it arrives, so that the parsing of one overlaps with the reading of others. The reads queue
   * on libuv's threads without waiting for the main thread: `order` names the files to queue first
   * (the others follow in the manifest's order); `skip` names files not to read at all. The names
   * were checked by {@link readManifest}.
   */
  constructor(
    dir: string,
    manifest: IndexManifest,
    read: ReadBytes,
    order: readonly string[] = [],
    skip: readonly string[] = [],
    check: FileCheck = "open",
  ) {
    this.#dir = dir;
    this.#manifest = manifest;
    this.#check = check;
    const names = Object.keys(manifest.checksums)
      .filter((name) => !skip.includes(name))
      .sort((a, b) => rank(order, a) - rank(order, b));
    for (const name of names) {
      const path = join(dir, manifest.generation, name);
      const verified = readBytes(dir, path, name, read).then((data) => {
        if (!matchesManifest(manifest, name, data, check))
          throw indexUnusable(dir, `file ${name} is corrupted (checksum mismatch)`);
        const stamp = readStampOf(data);
        const checksums = { sha256: manifest.checksums[name], crc32: manifest.crc32?.[name] };
        if (stamp !== undefined) rememberOrigin(data, { path, ...checksums, ...stamp });
        return data;
      });
      // Awaited by `get`; a load that fails early leaves the others to settle unobserved.
      verified.catch(() => undefined);
      this.#files.set(name, verified);
    }
  }

  /** True when the manifest lists `name`. */
  has(name: string): boolean {
    return this.#files.has(name);
  }

  /**
   * The bytes of `name`, once they match the manifest's checksum.
   * @throws LookupKnowledgeError `INDEX_CORRUPT` when it is not listed, missing or does not match.
   */
  async get(name: string): Promise<Buffer> {
    const pending = this.#files.get(name);
    if (pending === undefined) throw indexUnusable(this.#dir, `file ${name} is not listed in the manifest`);
    return pending;
  }

  /**
   * Checks the file at `path` (a second name or copy of the data file `name`, see `skip`) against
   * the manifest's checksums for it, reading it piece by piece.
   * @throws LookupKnowledgeError `INDEX_CORRUPT` when it does not match or cannot be read.
   */
  async checkFile(name: string, path: string): Promise<void> {
    const manifest = this.#manifest;
    const crc32 = manifest.crc32?.[name];
    const crcOnly = crc32 !== undefined && this.#check === "open";
    const sums = await (
      crcOnly ? fileCrc32(path).then((crc) => ({ crc32: crc, sha256: null })) : fileChecksums(path)
    ).catch((cause: unknown) => {
      throw indexUnusable(this.#dir, `file ${name} cannot be read (${errorMessage(cause)})`, cause);
    });
    const matches =
      (crc32 === undefined || sums.crc32 === crc32) && (crcOnly || sums.sha256 === manifest.checksums[name]);
    if (!matches) throw indexUnusable(this.#dir, `file ${name} is corrupted (checksum mismatch)`);
  }
}

function rank(first: readonly string[], name: string): number {
  const at = first.indexOf(name);
  return at === -1 ? first.length : at;
}

async function readBytes(dir: string, path: string, name: string, read: ReadBytes): Promise<Buffer> {
  try {
    return await read(path);
  } catch (cause) {
    const code = (cause as { code?: unknown } | null)?.code;
    throw indexUnusable(
      dir,
      code === "ENOENT" ? `file ${name} is missing` : `file ${name} cannot be read (${errorMessage(cause)})`,
      cause,
    );
  }
}

/** Parses one JSON data file of a verified index. */
export async function parseJsonFile<T>(dir: string, files: DataFiles, name: string): Promise<T> {
  const data = await files.get(name);
  try {
    return JSON.parse(data.toString("utf8")) as T;
  } catch (cause) {
    throw indexUnusable(dir, `file ${name} is not valid JSON`, cause);
  }
}
