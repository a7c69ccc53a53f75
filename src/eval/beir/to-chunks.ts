import { skipReasonOf } from "../../corpus/corpus-file-error.js";
import { normalizeFrontmatter } from "../../corpus/frontmatter.js";
import { LookupKnowledgeError } from "../../errors.js";
import type { Chunk } from "../../types.js";
import { shownValue } from "../../shown-value.js";
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
    if (!(error instanceof LookupKnowledgeError) || error.code !== "CORPUS_FILE_INVALID") throw error;
    throw new LookupKnowledgeError("DATASET_INVALID", `corpus document ${shownValue(doc.id)}: ${skipReasonOf(error).replace("frontmatter field", "field")}.`, { cause: error });
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
