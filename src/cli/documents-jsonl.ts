import { describeJsonError } from "../shown-value.js";

/**
 * Most bytes one line of a `--documents` file may hold (64 MiB, as much as `maxDocumentChars`
 * lets a document hold): a longer line is skipped by its number, and only this much of it is ever
 * held in memory, however long it is.
 */
export const MAX_DOCUMENT_LINE_BYTES = 64 * 1024 * 1024;

/** One document of a JSONL line, as LangChain's `Document` holds it. */
export interface JsonlDocument {
  pageContent: string;
  metadata: Record<string, unknown>;
}

/** What a read of JSONL documents counted, filled in as it goes. */
export interface JsonlTally {
  /** Lines read, blank and skipped ones included. */
  lines: number;
  /** Lines skipped: not JSON, not an object, a wrong field, too long, not UTF-8. */
  skippedLines: number;
  /** The line number of each document handed on, in order (`lineOfDocument[0]` is the first's). */
  lineOfDocument: number[];
  /** The line of each source id (`metadata[sourceIdKey]`) that one line alone holds; null for a source of several lines. */
  lineOfSource: Map<string, number | null>;
}

/** Options of {@link readJsonlDocuments}. */
export interface JsonlReadOptions {
  /** Called once per skipped line with its number (from 1) and why, never with its content. */
  onSkip: (line: number, reason: string) => void;
  /** Most bytes of one line. @default MAX_DOCUMENT_LINE_BYTES */
  maxLineBytes?: number;
  /** The metadata key of a document's source id, for `tally.lineOfSource`. @default "source" */
  sourceIdKey?: string;
}

/** One line's bytes (without its `\n`), or null when it ran past the limit; `size` is what it had. */
interface RawLine {
  bytes: Buffer | null;
  size: number;
}

/** Splits a byte stream at `\n`, keeping at most `maxBytes` of any line. */
async function* rawLines(input: AsyncIterable<Uint8Array | string>, maxBytes: number): AsyncGenerator<RawLine> {
  let parts: Buffer[] = [];
  let size = 0;
  let over = false;
  const take = (piece: Buffer) => {
    size += piece.length;
    if (size > maxBytes) {
      over = true;
      parts = [];
    } else if (!over && piece.length > 0) parts.push(piece);
  };
  const line = (): RawLine => {
    const done = { bytes: over ? null : Buffer.concat(parts), size };
    parts = [];
    size = 0;
    over = false;
    return done;
  };
  for await (const chunk of input) {
    const buffer =
      typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    let start = 0;
    for (let end = buffer.indexOf(0x0a, start); end !== -1; end = buffer.indexOf(0x0a, start)) {
      take(buffer.subarray(start, end));
      yield line();
      start = end + 1;
    }
    take(buffer.subarray(start));
  }
  if (size > 0) yield line();
}

/** The JSON type of a value as a message may name it (never the value). */
function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** The document one line holds, or why it holds none; never quotes the line. Pure. */
export function parseDocumentLine(text: string): JsonlDocument | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: describeJsonError(error, text) };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { problem: `not a JSON object but ${typeName(value)}; a line is {"pageContent": …, "metadata": {…}}` };
  const { pageContent, metadata = {} } = value as { pageContent?: unknown; metadata?: unknown };
  if (typeof pageContent !== "string")
    return {
      problem:
        pageContent === undefined ? "no pageContent" : `pageContent must be a string, got ${typeName(pageContent)}`,
    };
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata))
    return { problem: `metadata must be an object, got ${typeName(metadata)}` };
  return { pageContent, metadata: metadata as Record<string, unknown> };
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The documents of a JSONL stream, one `{ "pageContent": string, "metadata"?: object }` per line,
 * read as it streams: blank lines are ignored; a `\r` before the `\n` and a byte order mark on
 * the first line are dropped; every other line that holds no document is passed to `onSkip` by
 * number and counted in `tally`, which also records each document's line.
 */
export async function* readJsonlDocuments(
  input: AsyncIterable<Uint8Array | string>,
  tally: JsonlTally,
  options: JsonlReadOptions,
): AsyncGenerator<JsonlDocument> {
  const maxBytes = options.maxLineBytes ?? MAX_DOCUMENT_LINE_BYTES;
  const skip = (reason: string) => (tally.skippedLines++, options.onSkip(tally.lines, reason));
  for await (const { bytes, size } of rawLines(input, maxBytes)) {
    tally.lines++;
    if (bytes === null) {
      skip(`too long: ${size} bytes, at most ${maxBytes} (the line was not read)`);
      continue;
    }
    let text: string;
    try {
      text = UTF8.decode(bytes);
    } catch {
      skip("not UTF-8 text");
      continue;
    }
    if (tally.lines === 1 && text.startsWith("\uFEFF")) text = text.slice(1);
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.trim() === "") continue;
    const parsed = parseDocumentLine(text);
    if ("problem" in parsed) {
      skip(parsed.problem);
      continue;
    }
    tally.lineOfDocument.push(tally.lines);
    const id = parsed.metadata[options.sourceIdKey ?? "source"];
    // As the library reads a source id: a string, or a finite number as its text.
    const sourceId = typeof id === "string" ? id : typeof id === "number" && Number.isFinite(id) ? String(id) : null;
    if (sourceId !== null) tally.lineOfSource.set(sourceId, tally.lineOfSource.has(sourceId) ? null : tally.lines);
    yield parsed;
  }
}
