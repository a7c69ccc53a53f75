import { createHash } from "node:crypto";
import type { Chunk } from "../types.js";

/** Bytes of a content digest: the first 16 of its SHA-256. */
export const CONTENT_DIGEST_BYTES = 16;

/** Digests known without reading the content: those a store saved beside compressed contents. */
const known = new WeakMap<Chunk, Uint8Array>();

/** Records the digest of a chunk whose content is stored elsewhere (a loaded, still compressed chunk). */
export function rememberContentDigest(chunk: Chunk, digest: Uint8Array): void {
  known.set(chunk, digest);
}

/**
 * The digest of a chunk's content (SHA-256 of its UTF-8, cut to {@link CONTENT_DIGEST_BYTES});
 * memoised per chunk, so that fingerprinting an updated index never inflates its unchanged chunks.
 */
export function contentDigest(chunk: Chunk): Uint8Array {
  let digest = known.get(chunk);
  if (digest === undefined) known.set(chunk, (digest = createHash("sha256").update(chunk.content).digest().subarray(0, CONTENT_DIGEST_BYTES)));
  return digest;
}
