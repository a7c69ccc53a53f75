/**
 * How chunk texts are saved: `contents.bin` holds each chunk's content deflated on its own (the
 * rest of a chunk is in `chunk-list.json`, see `chunk-meta-codec.ts`). A load keeps the
 * contents compressed: a chunk's `content` is inflated when it is read (evidence blocks, an
 * update's comparison), so loading 100k chunks neither inflates nor decodes their text.
 */
import { TextDecoder } from "node:util";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { LookupKnowledgeError } from "../errors.js";
import type { Chunk } from "../types.js";
import type { ChunkFields } from "./chunk-meta-codec.js";
import { CONTENT_DIGEST_BYTES, contentDigest } from "./content-digest.js";
import { StoredChunk, type ContentStore } from "./stored-chunks.js";

const MAGIC = "lookup-knowledge-contents";
const VERSION = 2;
/**
 * How chunk contents are deflated: level 6 compresses SciFact abstracts 2.1x; a 4 KiB window is as
 * good as the default 32 KiB for texts this short and makes each call cheaper to set up.
 */
const DEFLATE = { level: 6, windowBits: 12, memLevel: 5, chunkSize: 4096 } as const;
/** The most one inflated content may take: a crafted file cannot inflate without bound. */
const MAX_INFLATED_BYTES = 512 * 1024 * 1024;
/** Contents inflated recently, kept so that one lookup reading a block several times inflates it once. */
const RECENT_CONTENTS = 2048;

/** The compressed content of chunks written to a store, reused by the next save. */
const compressedOf = new WeakMap<Chunk, Uint8Array>();

/** `INDEX_CORRUPT` for chunk contents: "chunk contents `detail`". */
export function contentsCorrupt(detail: string, cause?: unknown): LookupKnowledgeError {
  return new LookupKnowledgeError("INDEX_CORRUPT", `chunk contents ${detail}`, { cause });
}

const corrupt = contentsCorrupt;

/**
 * `contents.bin`: a JSON header, Float64 offsets (count + 1), each chunk's content digest
 * ({@link CONTENT_DIGEST_BYTES} bytes), then each chunk's deflated content.
 */
export function encodeContents(chunks: readonly Chunk[]): Buffer {
  const parts = chunks.map((chunk) => {
    if (chunk instanceof StoredChunk) return chunk.compressedContent();
    let compressed = compressedOf.get(chunk);
    // Copied out: zlib's own output buffer is larger than the result, and thousands of them kept for reuse add up.
    if (compressed === undefined)
      compressedOf.set(chunk, (compressed = Buffer.from(deflateRawSync(Buffer.from(chunk.content, "utf8"), DEFLATE))));
    return compressed;
  });
  const header = Buffer.from(JSON.stringify({ format: MAGIC, version: VERSION, count: chunks.length }));
  const offsets = new Float64Array(chunks.length + 1);
  parts.forEach((part, i) => (offsets[i + 1] = offsets[i] + part.length));
  const head = Buffer.alloc(4);
  head.writeUInt32LE(header.length);
  // Offsets start on an 8-byte boundary so they can be read as a Float64Array view.
  const padding = Buffer.alloc((8 - ((4 + header.length) % 8)) % 8);
  const digests = Buffer.concat(chunks.map((chunk) => contentDigest(chunk)));
  return Buffer.concat([head, header, padding, Buffer.from(offsets.buffer), digests, ...parts]);
}

/** Where the parts of a `contents.bin` lie, read from its head. */
export interface ContentsLayout {
  /** Byte offset of each chunk's deflated text from `dataStart` (count + 1 entries). */
  offsets: Float64Array;
  /** The content digests, {@link CONTENT_DIGEST_BYTES} per chunk. */
  digests: Uint8Array;
  /** Where the deflated texts start in the file: the length of its head. */
  dataStart: number;
}

/** Bytes before the offsets: the header's length, the header, and padding to an 8-byte boundary. */
function offsetsStart(headerLength: number): number {
  return 4 + headerLength + ((8 - ((4 + headerLength) % 8)) % 8);
}

/**
 * The length of the head of an encoded `contents.bin` (header, offsets, digests): what a load
 * reads and checks when it leaves the texts on disk.
 */
export function contentsHeadLength(encoded: Uint8Array): number {
  const buffer = Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength);
  const headerLength = buffer.readUInt32LE(0);
  const { count } = JSON.parse(buffer.subarray(4, 4 + headerLength).toString("utf8")) as { count: number };
  return offsetsStart(headerLength) + (count + 1) * 8 + count * CONTENT_DIGEST_BYTES;
}

/**
 * Reads the layout of a `contents.bin` of `count` chunks and `fileSize` bytes from its first bytes
 * (`head`: at least its head; the whole file will do), checking that the offsets fill the file.
 * @throws LookupKnowledgeError `INDEX_CORRUPT` when it does not.
 */
export function readContentsLayout(head: Uint8Array, count: number, fileSize: number): ContentsLayout {
  const buffer = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (buffer.length < 4) throw corrupt("end early");
  const headerLength = buffer.readUInt32LE(0);
  let header: { format?: unknown; version?: unknown; count?: unknown };
  try {
    header = JSON.parse(buffer.subarray(4, 4 + headerLength).toString("utf8")) as typeof header;
  } catch (cause) {
    throw corrupt("have no readable header", cause);
  }
  if (header.format !== MAGIC || header.version !== VERSION || header.count !== count)
    throw corrupt(`are not version ${VERSION} contents of ${count} chunks`);
  const start = offsetsStart(headerLength);
  const digestStart = start + (count + 1) * 8;
  const dataStart = digestStart + count * CONTENT_DIGEST_BYTES;
  if (dataStart > buffer.length || dataStart > fileSize) throw corrupt("end early");
  const offsets = new Float64Array(buffer.buffer.slice(buffer.byteOffset + start, buffer.byteOffset + digestStart));
  if (offsets[0] !== 0 || dataStart + offsets[count] !== fileSize) throw corrupt("do not fill the file");
  for (let i = 0; i < count; i++)
    if (!(offsets[i + 1] >= offsets[i]) || !Number.isInteger(offsets[i + 1]))
      throw corrupt(`have a bad offset for chunk ${i}`);
  return { offsets, digests: buffer.subarray(digestStart, dataStart), dataStart };
}

/**
 * Inflates one chunk's deflated text into a string.
 * @throws LookupKnowledgeError `INDEX_CORRUPT` when it does not inflate to UTF-8 text.
 */
export function inflateContent(compressed: Uint8Array, index: number, utf8: TextDecoder): string {
  try {
    return utf8.decode(inflateRawSync(compressed, { maxOutputLength: MAX_INFLATED_BYTES }));
  } catch (cause) {
    throw corrupt(`of chunk ${index} do not inflate to UTF-8 text; run \`lookup-knowledge index --full\``, cause);
  }
}

/** A bounded cache of inflated texts: one lookup reading a block several times inflates it once. */
export function recentContents(read: (index: number) => string): (index: number) => string {
  const recent = new Map<number, string>();
  return (index) => {
    let text = recent.get(index);
    if (text === undefined) {
      text = read(index);
      if (recent.size >= RECENT_CONTENTS) recent.delete(recent.keys().next().value as number);
      recent.set(index, text);
    }
    return text;
  };
}

/**
 * Gives every chunk a lazily inflated `content` from `contents.bin` read whole (checked in layout
 * now; a content that does not inflate throws `INDEX_CORRUPT` when it is read).
 * @throws LookupKnowledgeError `INDEX_CORRUPT` when the layout does not match `chunks`.
 */
export function attachContents(chunks: readonly ChunkFields[], bytes: Uint8Array): Chunk[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { offsets, digests, dataStart } = readContentsLayout(buffer, chunks.length, buffer.length);
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  const compressed = (i: number) => buffer.subarray(dataStart + offsets[i], dataStart + offsets[i + 1]);
  const store: ContentStore = {
    content: recentContents((i) => inflateContent(compressed(i), i, utf8)),
    compressed,
    digest: (i) => digests.subarray(i * CONTENT_DIGEST_BYTES, (i + 1) * CONTENT_DIGEST_BYTES),
  };
  return chunks.map((fields, i) => new StoredChunk(fields, store, i));
}
