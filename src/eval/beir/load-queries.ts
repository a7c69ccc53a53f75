import { datasetError } from "./dataset-error.js";
import { parseJsonRecord, takeStringField } from "./json-record.js";
import { readLines } from "./read-lines.js";
import type { BeirQuery } from "./types.js";

/**
 * Streams a BEIR `queries.jsonl`: one JSON object per line with `_id` (or `id`), `text`, and any
 * other fields, which are kept as {@link BeirQuery.metadata}. Blank lines are skipped.
 *
 * @throws LookupKnowledgeError (`DATASET_INVALID`) naming the file and line for bad JSON, a missing
 * id or text, or a query id that occurs twice.
 */
export async function loadBeirQueries(file: string): Promise<BeirQuery[]> {
  const queries: BeirQuery[] = [];
  const firstSeen = new Map<string, number>();
  for await (const { text, lineNumber } of readLines(file)) {
    if (text.trim() === "") continue;
    const { id, fields } = parseJsonRecord(text, file, lineNumber);
    const previous = firstSeen.get(id);
    if (previous !== undefined) {
      throw datasetError(file, lineNumber, `duplicate query id "${id}" (first on line ${previous}).`);
    }
    firstSeen.set(id, lineNumber);
    const body = takeStringField(fields, "text", false, file, lineNumber);
    queries.push({ id, text: body, metadata: fields });
  }
  return queries;
}
