import { FrontmatterError, normalizeFrontmatter } from "../../src/corpus/frontmatter.js";
import { LookupKnowledgeError } from "../../src/errors.js";
import type { Chunk } from "../../src/types.js";
import type { BeirDocument } from "./types.js";

/**
 * One BEIR corpus row becomes one source: id as source, title and text as the chunk, and the
 * row's metadata read like frontmatter (`category` or `domain`, `keywords` or `tags`, `entities`,
 * `aliases`), so `category` feeds L0's domain hints.
 */
export function beirDocumentToChunk(doc: BeirDocument): Chunk {
  let meta;
  try {
    meta = normalizeFrontmatter({ ...doc.metadata, title: doc.title });
  } catch (error) {
    if (!(error instanceof FrontmatterError)) throw error;
    throw new LookupKnowledgeError("DATASET_INVALID", `corpus document "${doc.id}": ${error.message.replace("frontmatter field", "field")}.`);
  }
  return {
    source: doc.id,
    file: doc.id,
    ...(meta.title !== undefined ? { title: meta.title } : {}),
    breadcrumb: meta.title !== undefined ? [meta.title] : [],
    content: doc.text,
    meta,
  };
}
