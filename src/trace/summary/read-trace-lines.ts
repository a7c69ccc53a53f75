/** Reading a trace file line by line, as a stream: any size, bounded memory. */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { errorMessage, LookupKnowledgeError } from "../../errors.js";
import { MAX_TRACE_LINE_BYTES } from "../trace-limits.js";
import { nonRegularKind } from "../trace-file.js";

/** What reads the lines: a whole line (newline removed), or a line skipped unread. */
export interface TraceLineVisitor {
  addLine(line: string): void;
  skipLine(partialLastLine: boolean): void;
}

/** Bytes of one line held at most: far above the trace's own bound, so only garbage is cut. */
export const MAX_LINE_READ_BYTES = 16 * MAX_TRACE_LINE_BYTES;

const NEWLINE = 0x0a;

/**
 * Streams `path` in chunks and hands each newline-terminated line to `visitor.addLine`. A line
 * longer than {@link MAX_LINE_READ_BYTES} is dropped as it streams (`skipLine(false)`), and
 * text after the last newline is a partial line (`skipLine(true)`): the sink's newline is what
 * commits a record, so an unterminated tail is a write in progress or a torn one.
 * @throws LookupKnowledgeError `TRACE_UNAVAILABLE` when the file is missing, not a regular file, or unreadable.
 */
export async function readTraceLines(path: string, visitor: TraceLineVisitor): Promise<void> {
  try {
    // Checked first: reading a FIFO would wait for a writer.
    const kind = nonRegularKind(await stat(path));
    if (kind !== null)
      throw new LookupKnowledgeError(
        "TRACE_UNAVAILABLE",
        `the trace path "${path}" is ${kind}, not a regular file; pass a JSONL trace file.`,
      );
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let oversized = false;
    for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
      let start = 0;
      for (let end = chunk.indexOf(NEWLINE, start); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
        const piece = chunk.subarray(start, end);
        if (oversized || pendingBytes + piece.length > MAX_LINE_READ_BYTES) visitor.skipLine(false);
        else visitor.addLine((pendingBytes === 0 ? piece : Buffer.concat([...pending, piece])).toString("utf8"));
        [pending, pendingBytes, oversized, start] = [[], 0, false, end + 1];
      }
      const rest = chunk.subarray(start);
      if (oversized || rest.length === 0) continue;
      if (pendingBytes + rest.length > MAX_LINE_READ_BYTES) [pending, pendingBytes, oversized] = [[], 0, true];
      else {
        // Copied: the stream may reuse its buffer.
        pending.push(Buffer.from(rest));
        pendingBytes += rest.length;
      }
    }
    if (pendingBytes > 0 || oversized) visitor.skipLine(true);
  } catch (error) {
    if (error instanceof LookupKnowledgeError) throw error;
    const code = (error as NodeJS.ErrnoException | null)?.code;
    if (code === "ENOENT" || code === "ENOTDIR")
      throw new LookupKnowledgeError(
        "TRACE_UNAVAILABLE",
        `no trace file at "${path}"; pass the path of an existing JSONL trace file.`,
        { cause: error },
      );
    throw new LookupKnowledgeError(
      "TRACE_UNAVAILABLE",
      `cannot read the trace file "${path}" (${errorMessage(error)}).`,
      { cause: error },
    );
  }
}
