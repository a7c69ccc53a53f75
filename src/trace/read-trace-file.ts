/** Reading a JSONL trace back, skipping what is not a whole record. */
import { readFile, stat } from "node:fs/promises";
import { errorMessage, LookupKnowledgeError } from "../errors.js";
import { nonRegularKind } from "./trace-file.js";

/** The records of a trace and how many lines were not records. */
export interface TraceFileContents {
  /** Every line that parses as a JSON object, in file order. */
  records: Record<string, unknown>[];
  /** Lines that were skipped: a partial last line, fragments a full disk left, blank lines, non-objects. */
  skippedLines: number;
}

function asRecord(line: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(line) as unknown;
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** Parses JSONL text into records, counting the lines that are not whole records (pure). */
export function parseTraceText(text: string): TraceFileContents {
  const lines = text.split("\n");
  // The text after the last newline is a partial line, unless it is empty.
  if (lines[lines.length - 1] === "") lines.pop();
  const records: Record<string, unknown>[] = [];
  let skippedLines = 0;
  for (const line of lines) {
    const record = asRecord(line.endsWith("\r") ? line.slice(0, -1) : line);
    if (record === null) skippedLines++;
    else records.push(record);
  }
  return { records, skippedLines };
}

function codeOf(error: unknown): unknown {
  return error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
}

/**
 * Reads a JSONL trace file with {@link parseTraceText}. A file that does not exist yet (the sink
 * creates it on its first append) reads as no records.
 * @throws LookupKnowledgeError `TRACE_UNAVAILABLE` when the path is not a regular file or cannot be read.
 */
export async function readTraceFile(path: string): Promise<TraceFileContents> {
  try {
    // Checked first: reading a FIFO would wait for a writer.
    const kind = nonRegularKind(await stat(path));
    if (kind !== null)
      throw new LookupKnowledgeError("TRACE_UNAVAILABLE", `the trace path "${path}" is ${kind}, not a regular file.`);
    return parseTraceText(await readFile(path, "utf8"));
  } catch (error) {
    if (error instanceof LookupKnowledgeError) throw error;
    const code = codeOf(error);
    if (code === "ENOENT" || code === "ENOTDIR") return { records: [], skippedLines: 0 };
    throw new LookupKnowledgeError(
      "TRACE_UNAVAILABLE",
      `cannot read the trace file "${path}" (${errorMessage(error)}).`,
      { cause: error },
    );
  }
}
