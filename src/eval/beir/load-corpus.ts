import { datasetError } from "./dataset-error.js";
import { parseJsonRecord, takeStringField } from "./json-record.js";
import { readLines } from "./read-lines.js";
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
  const documents: BeirDocument[] = [];
  const firstSeen = new Map<string, number>();
  for await (const { text, lineNumber } of readLines(file)) {
    if (text.trim() === "") continue;
    const { id, fields } = parseJsonRecord(text, file, lineNumber);
    const previous = firstSeen.get(id);
    if (previous !== undefined) {
      throw datasetError(file, lineNumber, `duplicate document id "${id}" (first on line ${previous}).`);
    }
    firstSeen.set(id, lineNumber);
    const title = takeStringField(fields, "title", true, file, lineNumber);
    const body = takeStringField(fields, "text", false, file, lineNumber);
    documents.push({ id, title, text: body, metadata: fields });
  }
  return documents;
}
