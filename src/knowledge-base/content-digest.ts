import { createHash } from "node:crypto";
import type { Chunk } from "../types.js";
import { StoredChunk } from "./stored-chunks.js";

/** Bytes of a content digest: the first 16 of its SHA-256. */
export const CONTENT_DIGEST_BYTES = 16;

/** Digests computed so far (of chunks not loaded from an index). */
const known = new WeakMap<Chunk, Uint8Array>();

/**
 * The digest of a chunk's content (SHA-256 of its UTF-8, cut to {@link CONTENT_DIGEST_BYTES});
 * memoised per chunk, so that fingerprinting an updated index never inflates its unchanged chunks.
 */
export function contentDigest(chunk: Chunk): Uint8Array {
  if (chunk instanceof StoredChunk) return chunk.storedDigest();
  let digest = known.get(chunk);
  if (digest === undefined) known.set(chunk, (digest = digestOfText(chunk.content)));
  return digest;
}

/** The content digest of a text: the first {@link CONTENT_DIGEST_BYTES} of the SHA-256 of its UTF-8. */
export function digestOfText(text: string): Uint8Array {
  return createHash("sha256").update(text).digest().subarray(0, CONTENT_DIGEST_BYTES);
}
