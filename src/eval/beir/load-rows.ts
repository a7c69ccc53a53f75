import { datasetError } from "./dataset-error.js";
import { parseJsonRecord } from "./json-record.js";
import { readLines } from "./read-lines.js";
import { shownValue } from "../../shown-value.js";

/**
 * Streams a BEIR JSONL file of rows with unique ids (`_id` or `id`), skipping blank lines, and
 * builds one value per row with `build(id, fields, lineNumber)`.
 * @throws LookupKnowledgeError (`DATASET_INVALID`) naming the file and line for bad JSON, a missing id or an id that occurs twice.
 */
export async function loadBeirRows<T>(file: string, kind: "document" | "query", build: (id: string, fields: Record<string, unknown>, lineNumber: number) => T): Promise<T[]> {
  const rows: T[] = [];
  const firstSeen = new Map<string, number>();
  for await (const { text, lineNumber } of readLines(file)) {
    if (text.trim() === "") continue;
    const { id, fields } = parseJsonRecord(text, file, lineNumber);
    const previous = firstSeen.get(id);
    if (previous !== undefined) throw datasetError(file, lineNumber, `duplicate ${kind} id ${shownValue(id)} (first on line ${previous}).`);
    firstSeen.set(id, lineNumber);
    rows.push(build(id, fields, lineNumber));
  }
  return rows;
}
