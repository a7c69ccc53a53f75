import { datasetError } from "./dataset-error.js";
import { describeJsonError, shownJson, shownValue } from "../../shown-value.js";

/** A JSONL record split into its id and the rest of its fields. */
export interface JsonRecord {
  id: string;
  fields: Record<string, unknown>;
}

/**
 * Parses one JSONL line into an object and takes its id from `_id` (BEIR's spelling) or `id`.
 * The id field that was used is removed from `fields`; everything else stays.
 *
 * @throws LookupKnowledgeError (`DATASET_INVALID`) naming `file` and `lineNumber` when the line is
 * not JSON, not an object, or has no usable id (an id with whitespace included).
 */
export function parseJsonRecord(text: string, file: string, lineNumber: number): JsonRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // Not the parser's message: it quotes the start of the line, which may be a file linked in place of the dataset.
    throw datasetError(file, lineNumber, `${describeJsonError(error, text)}; expected one JSON object per line.`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw datasetError(file, lineNumber, "expected one JSON object per line.");
  }
  const fields: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const key = "_id" in fields ? "_id" : "id" in fields ? "id" : undefined;
  if (key === undefined) {
    throw datasetError(file, lineNumber, 'record has no "_id" or "id" field.');
  }
  const raw = fields[key];
  const id = typeof raw === "number" && Number.isFinite(raw) ? String(raw) : raw;
  if (typeof id !== "string" || id.trim() === "") {
    throw datasetError(
      file,
      lineNumber,
      `"${key}" must be a non-empty string or a number, got ${shownJson(raw)}.`,
    );
  }
  // Checked here, not when the run file is written after the whole evaluation.
  if (/\s/.test(id)) {
    throw datasetError(file, lineNumber, `"${key}" ${shownValue(id)} contains whitespace, which a TREC run file cannot hold; rename the id.`);
  }
  delete fields[key];
  return { id, fields };
}

/**
 * Removes `name` from `fields` and returns it as a string: `""` when absent or null if `optional`,
 * otherwise the field must be a string.
 *
 * @throws LookupKnowledgeError (`DATASET_INVALID`) naming `file` and `lineNumber` otherwise.
 */
export function takeStringField(
  fields: Record<string, unknown>,
  name: string,
  optional: boolean,
  file: string,
  lineNumber: number,
): string {
  const value = fields[name];
  delete fields[name];
  if (typeof value === "string") return value;
  if (optional && (value === undefined || value === null)) return "";
  const found = value === undefined ? "it is missing" : `got ${shownJson(value)}`;
  throw datasetError(file, lineNumber, `"${name}" must be a string, but ${found}.`);
}
