import { takeStringField } from "./json-record.js";
import { loadBeirRows } from "./load-rows.js";
import type { BeirDocument } from "./types.js";

/**
 * Streams a BEIR `corpus.jsonl`: one JSON object per line with `_id` (or `id`), optional `title`,
 * `text`, and any other fields, which are kept as {@link BeirDocument.metadata}. Blank lines are
 * skipped.
 *
 * @throws LookupKnowledgeError (`DATASET_INVALID`) naming the file and line for bad JSON, a missing
 * id or text, or a document id that occurs twice.
 */
export async function loadBeirCorpus(file: string): Promise<BeirDocument[]> {
  return loadBeirRows(file, "document", (id, fields, lineNumber) => {
    const title = takeStringField(fields, "title", true, file, lineNumber);
    const text = takeStringField(fields, "text", false, file, lineNumber);
    return { id, title, text, metadata: fields };
  });
}
