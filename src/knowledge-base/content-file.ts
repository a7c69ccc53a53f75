/**
 * `contents.bin` left on disk: a load reads and checks its head (header, offsets, digests) and
 * reads each chunk's deflated text when its `content` is first asked for, checking it against
 * the chunk's digest, so a serving process holds no texts it does not return. A save, which
 * copies every text into its new generation, reads the file whole once and checks its CRC-32.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { TextDecoder } from "node:util";
import { errorMessage, LookupKnowledgeError } from "../errors.js";
import type { Chunk } from "../types.js";
import { contentsCorrupt as corrupt, inflateContent, readContentsLayout, recentContents } from "./chunk-store.js";
import type { ChunkFields } from "./chunk-meta-codec.js";
import { CONTENT_DIGEST_BYTES, digestOfText } from "./content-digest.js";
import { INDEX_FILES } from "./index-layout.js";
import { crc32Hex, type DataFileHead, type IndexManifest } from "./manifest.js";
import { StoredChunk, type ContentStore } from "./stored-chunks.js";

/** What the manifest says of the file: its head, and the CRC-32 of the whole file. */
export interface ContentFileChecks {
  head: DataFileHead;
  crc32: string;
}

/** Closes the file of a content store nobody can read any more. */
const closeWhenUnreachable = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Closed already, or never to be reused by us: nothing to report to.
  }
});

/** Size of `contents.bin` (about 25k SciFact chunks) from which `texts: "auto"` leaves the texts on disk. */
export const TEXTS_ON_DISK_FROM_BYTES = 16 * 1024 * 1024;

/**
 * Where `contents.bin` is and what to check of it when the load leaves it on disk (see
 * `LoadOptions.texts`): in an index that records its head, unless every byte is to be verified
 * now. Null: it is read whole.
 */
export function contentFileToOpen(
  dir: string,
  manifest: IndexManifest,
  { verify = false, texts = "auto" }: { verify?: boolean; texts?: "auto" | "disk" | "memory" },
): { path: string; checks: ContentFileChecks } | null {
  const head = manifest.heads?.[INDEX_FILES.contents];
  const crc32 = manifest.crc32?.[INDEX_FILES.contents];
  if (verify || head === undefined || crc32 === undefined || texts === "memory") return null;
  if (texts === "auto" && head.size < TEXTS_ON_DISK_FROM_BYTES) return null;
  return { path: join(dir, manifest.generation, INDEX_FILES.contents), checks: { head, crc32 } };
}

/** A read failure of the file as `INDEX_CORRUPT`; one already of ours as it is. */
function readFailure(path: string, cause: unknown): LookupKnowledgeError {
  return cause instanceof LookupKnowledgeError
    ? cause
    : corrupt(`cannot be read from ${path} (${errorMessage(cause)})`, cause);
}

/** Reads `length` bytes at `position`; fewer means the file changed under the index. */
function readAt(fd: number, length: number, position: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  let at = 0;
  while (at < length) {
    const read = readSync(fd, bytes, at, length - at, position + at);
    if (read === 0)
      throw corrupt(`end early (at byte ${position + at} of the file); run \`lookup-knowledge index --full\``);
    at += read;
  }
  return bytes;
}

/**
 * Opens the `contents.bin` at `path` for `chunks`: checks that it is a regular file of the
 * manifest's size whose head matches the manifest's CRC-32, and gives each chunk a `content`
 * read from the file on demand.
 * @throws Error when the file cannot be opened or read (the caller names the file).
 * @throws LookupKnowledgeError `INDEX_CORRUPT` when its size, head or layout does not match.
 */
export function openContentFile(path: string, chunks: readonly ChunkFields[], checks: ContentFileChecks): Chunk[] {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0));
  let store: ContentStore;
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw corrupt("are not in a regular file");
    if (info.size !== checks.head.size)
      throw corrupt(
        `are in a file of ${info.size} bytes, the manifest says ${checks.head.size} (truncated or replaced)`,
      );
    const head = readAt(fd, checks.head.bytes, 0);
    if (crc32Hex(head) !== checks.head.crc32) throw corrupt("are corrupted (checksum mismatch of the file's head)");
    store = fileStore(fd, path, readContentsLayout(head, chunks.length, info.size), checks.crc32);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  const stored = chunks.map((fields, i) => new StoredChunk(fields, store, i));
  closeWhenUnreachable.register(store, fd);
  return stored;
}

function fileStore(
  fd: number,
  path: string,
  { offsets, digests, dataStart }: ReturnType<typeof readContentsLayout>,
  fileCrc32: string,
): ContentStore {
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  const digest = (i: number) => digests.subarray(i * CONTENT_DIGEST_BYTES, (i + 1) * CONTENT_DIGEST_BYTES);
  const length = (i: number) => offsets[i + 1] - offsets[i];
  let whole: Buffer | null = null;
  const wholeFile = (): Buffer => {
    if (whole === null) {
      let bytes: Buffer;
      try {
        bytes = readAt(fd, dataStart + offsets[offsets.length - 1], 0);
      } catch (cause) {
        throw readFailure(path, cause);
      }
      if (crc32Hex(bytes) !== fileCrc32)
        throw corrupt("are corrupted (checksum mismatch); run `lookup-knowledge index --full`");
      whole = bytes;
    }
    return whole;
  };
  const read = (i: number): string => {
    let compressed: Buffer;
    try {
      compressed =
        whole !== null
          ? whole.subarray(dataStart + offsets[i], dataStart + offsets[i + 1])
          : readAt(fd, length(i), dataStart + offsets[i]);
    } catch (cause) {
      throw readFailure(path, cause);
    }
    const text = inflateContent(compressed, i, utf8);
    if (!Buffer.from(digestOfText(text)).equals(digest(i)))
      throw corrupt(`of chunk ${i} do not match their digest (a damaged file); run \`lookup-knowledge index --full\``);
    return text;
  };
  return {
    content: recentContents(read),
    compressed: (i) => wholeFile().subarray(dataStart + offsets[i], dataStart + offsets[i + 1]),
    digest,
  };
}
