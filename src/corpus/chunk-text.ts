import type { Chunk } from "../types.js";

/**
 * The text a chunk is ranked by, in both layers: title and heading path, the short frontmatter
 * fields, then the section body. Keeping it in one place keeps BM25 and the embedder aligned.
 */
export function chunkSearchText(chunk: Chunk): string {
  const { meta } = chunk;
  return [chunk.breadcrumb.join(" \n "), meta.keywords.join(", "), meta.aliases.join(", "), meta.entities.join(", "), chunk.content]
    .filter((part) => part.length > 0)
    .join("\n");
}
