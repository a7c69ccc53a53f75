/** Measures a JSONL trace file line by line: what parses, what is torn, what is too long. */
import { createReadStream } from "node:fs";

/** What a trace file holds, measured from its raw bytes. */
export interface TraceLineAudit {
  /** Lines in the file (text between newlines; a final partial line counts). */
  lines: number;
  /** Lines that parse as one JSON object with an invocation id. */
  records: number;
  /** Empty lines: a sink starting on a fresh line after a fragment, or after reading the end of the file mid-write. */
  blank: number;
  /** Invocation ids of the lines that parse as one JSON object, in file order. */
  ids: string[];
  /** Non-empty lines that do not parse as one JSON object: torn, glued or partial. */
  broken: string[];
  /** Lines longer than `maxBytes`, newline included. */
  oversized: number;
  /** False when the last line has no newline. */
  endsWithNewline: boolean;
}

/** Characters kept of a broken line: enough to see a glued record, short of the megabytes a torn unbounded line can have. */
const BROKEN_KEPT = 256 * 1024;

/** Audits one line (its bytes, without the newline). */
function auditLine(audit: TraceLineAudit, bytes: Buffer, maxBytes: number): void {
  audit.lines++;
  if (bytes.length === 0) {
    audit.blank++;
    return;
  }
  if (bytes.length + 1 > maxBytes) audit.oversized++;
  const line = bytes.toString("utf8");
  try {
    const record = JSON.parse(line) as { invocation_id?: unknown };
    if (typeof record.invocation_id === "string") audit.records = audit.ids.push(record.invocation_id);
    else audit.broken.push(line.slice(0, BROKEN_KEPT));
  } catch {
    audit.broken.push(line.slice(0, BROKEN_KEPT));
  }
}

/** Streams `path` and audits every line against the `maxBytes` bound (the file may be far larger than a string can be). */
export async function auditTraceFile(path: string, maxBytes: number): Promise<TraceLineAudit> {
  const audit: TraceLineAudit = {
    lines: 0,
    records: 0,
    blank: 0,
    ids: [],
    broken: [],
    oversized: 0,
    endsWithNewline: true,
  };
  let pending: Buffer[] = [];
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      auditLine(audit, Buffer.concat([...pending, chunk.subarray(start, end)]), maxBytes);
      pending = [];
      start = end + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) {
    audit.endsWithNewline = false;
    auditLine(audit, Buffer.concat(pending), maxBytes);
  }
  return audit;
}

/** Ids reported written that are not exactly once in `ids`: the lines a scenario lost. */
export function lostIds(reportedWritten: readonly string[], ids: readonly string[]): string[] {
  const seen = new Map<string, number>();
  for (const id of ids) seen.set(id, (seen.get(id) ?? 0) + 1);
  return reportedWritten.filter((id) => seen.get(id) !== 1);
}
