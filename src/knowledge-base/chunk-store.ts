/**
 * How chunks are saved: their metadata as one deflated JSON list (`chunks.json.z`) and their text
 * in `contents.bin`, each chunk's content deflated on its own. A load parses the metadata and
 * keeps the contents compressed: a chunk's `content` is inflated when it is read (evidence
 * blocks, an update's comparison), so loading 100k chunks neither inflates nor decodes their text.
 */
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { LookupKnowledgeError } from "../errors.js";
import type { Chunk } from "../types.js";
import { CONTENT_DIGEST_BYTES, contentDigest, rememberContentDigest } from "./content-digest.js";

const MAGIC = "lookup-knowledge-contents";
const VERSION = 2;
/**
 * How chunk contents are deflated: level 6 compresses SciFact abstracts 2.1x; a 4 KiB window is as
 * good as the default 32 KiB for texts this short and makes each call cheaper to set up.
 */
const DEFLATE = { level: 6, windowBits: 12, memLevel: 5, chunkSize: 4096 } as const;
/** The most one inflated file or content may take: a crafted file cannot inflate without bound. */
const MAX_INFLATED_BYTES = 512 * 1024 * 1024;
/** Contents inflated recently, kept so that one lookup reading a block several times inflates it once. */
const RECENT_CONTENTS = 2048;

/** The compressed content of chunks written to a store, reused by the next save. */
const compressedOf = new WeakMap<Chunk, Uint8Array>();
/** Where the compressed content of a loaded chunk is (sliced only when a save needs it). */
const storedAt = new WeakMap<Chunk, { store: { compressed: (index: number) => Uint8Array }; index: number }>();

function corrupt(detail: string, cause?: unknown): LookupKnowledgeError {
  return new LookupKnowledgeError("INDEX_CORRUPT", `chunk contents ${detail}`, { cause });
}

/** The deflated JSON list of every chunk without its content. */
export function encodeChunkMeta(chunks: readonly Chunk[]): Buffer {
  // Field by field: reading `content` would inflate every chunk of a loaded index.
  const meta = chunks.map(({ source, file, title, breadcrumb, meta }) => (title === undefined ? { source, file, breadcrumb, meta } : { source, file, title, breadcrumb, meta }));
  return deflateRawSync(Buffer.from(JSON.stringify(meta)), { level: 1 });
}

/** Parses {@link encodeChunkMeta} output; each entry still lacks its content. @throws LookupKnowledgeError `INDEX_CORRUPT`. */
export function decodeChunkMeta(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(inflateRawSync(bytes, { maxOutputLength: MAX_INFLATED_BYTES }).toString("utf8")) as unknown;
  } catch (cause) {
    throw new LookupKnowledgeError("INDEX_CORRUPT", "chunk list does not inflate to JSON", { cause });
  }
}

/**
 * `contents.bin`: a JSON header, Float64 offsets (count + 1), each chunk's content digest
 * ({@link CONTENT_DIGEST_BYTES} bytes), then each chunk's deflated content.
 */
export function encodeContents(chunks: readonly Chunk[]): Buffer {
  const parts = chunks.map((chunk) => {
    const stored = storedAt.get(chunk);
    if (stored !== undefined) return stored.store.compressed(stored.index);
    let compressed = compressedOf.get(chunk);
    // Copied out: zlib's own output buffer is larger than the result, and thousands of them kept for reuse add up.
    if (compressed === undefined) compressedOf.set(chunk, (compressed = Buffer.from(deflateRawSync(Buffer.from(chunk.content, "utf8"), DEFLATE))));
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

/**
 * Gives every chunk a lazily inflated `content` from `contents.bin` (checked in layout now; a
 * content that does not inflate throws `INDEX_CORRUPT` when it is read).
 * @throws LookupKnowledgeError `INDEX_CORRUPT` when the layout does not match `chunks`.
 */
export function attachContents(chunks: Record<string, unknown>[], bytes: Uint8Array): Chunk[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length < 4) throw corrupt("end early");
  const headerLength = buffer.readUInt32LE(0);
  let header: { format?: unknown; version?: unknown; count?: unknown };
  try {
    header = JSON.parse(buffer.subarray(4, 4 + headerLength).toString("utf8")) as typeof header;
  } catch (cause) {
    throw corrupt("have no readable header", cause);
  }
  if (header.format !== MAGIC || header.version !== VERSION || header.count !== chunks.length) throw corrupt(`are not version ${VERSION} contents of ${chunks.length} chunks`);
  const start = 4 + headerLength + ((8 - ((4 + headerLength) % 8)) % 8);
  const digestStart = start + (chunks.length + 1) * 8;
  const dataStart = digestStart + chunks.length * CONTENT_DIGEST_BYTES;
  if (dataStart > buffer.length) throw corrupt("end early");
  const offsets = new Float64Array(buffer.buffer.slice(buffer.byteOffset + start, buffer.byteOffset + digestStart));
  if (offsets[0] !== 0 || dataStart + offsets[chunks.length] !== buffer.length) throw corrupt("do not fill the file");
  for (let i = 0; i < chunks.length; i++) if (!(offsets[i + 1] >= offsets[i]) || !Number.isInteger(offsets[i + 1])) throw corrupt(`have a bad offset for chunk ${i}`);

  const recent = new Map<number, string>();
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  const compressed = (i: number) => buffer.subarray(dataStart + offsets[i], dataStart + offsets[i + 1]);
  const contentOf = (i: number): string => {
    let text = recent.get(i);
    if (text === undefined) {
      try {
        text = utf8.decode(inflateRawSync(compressed(i)));
      } catch (cause) {
        throw corrupt(`of chunk ${i} do not inflate to UTF-8 text; run \`lookup-knowledge index --full\``, cause);
      }
      if (recent.size >= RECENT_CONTENTS) recent.delete(recent.keys().next().value as number);
      recent.set(i, text);
    }
    return text;
  };
  const stored = { compressed };
  return chunks.map((entry, i) => {
    // An object literal with a getter stays a fast object; defining the property afterwards would not.
    const { source, file, title, breadcrumb, meta } = entry as unknown as Chunk;
    const chunk: Chunk =
      title === undefined
        ? { source, file, breadcrumb, get content() { return contentOf(i); }, meta }
        : { source, file, title, breadcrumb, get content() { return contentOf(i); }, meta };
    storedAt.set(chunk, { store: stored, index: i });
    rememberContentDigest(chunk, buffer.subarray(digestStart + i * CONTENT_DIGEST_BYTES, digestStart + (i + 1) * CONTENT_DIGEST_BYTES));
    return chunk;
  });
}
