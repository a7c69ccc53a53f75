import { takeStringField } from "./json-record.js";
import { loadBeirRows } from "./load-rows.js";
import type { BeirQuery } from "./types.js";

/**
 * Streams a BEIR `queries.jsonl`: one JSON object per line with `_id` (or `id`), `text`, and any
 * other fields, which are kept as {@link BeirQuery.metadata}. Blank lines are skipped.
 *
 * @throws LookupKnowledgeError (`DATASET_INVALID`) naming the file and line for bad JSON, a missing
 * id or text, or a query id that occurs twice.
 */
export async function loadBeirQueries(file: string): Promise<BeirQuery[]> {
  return loadBeirRows(file, "query", (id, fields, lineNumber) => ({ id, text: takeStringField(fields, "text", false, file, lineNumber), metadata: fields }));
}
