/** One record as one bounded JSONL line (pure). */
import { errorMessage } from "../errors.js";
import { capText } from "../text/cap-text.js";
import { boundRecord } from "./bound-record.js";
import { MAX_TRACE_LINE_BYTES } from "./trace-limits.js";

/** A record serialised as one line, or why it could not be. */
export type SerializedTraceLine = { ok: true; line: string } | { ok: false; reason: string };

const fits = (line: string, maxBytes: number) => Buffer.byteLength(line, "utf8") <= maxBytes;

/** What is left of a record whose fields cannot be cut enough: its type and id, and its size. */
function stub(record: Record<string, unknown>, originalBytes: number): string {
  const name = (value: unknown) => (typeof value === "string" ? capText(value, 128) : undefined);
  return `${JSON.stringify({ type: name(record.type), invocation_id: name(record.invocation_id), truncated: ["*"], original_bytes: originalBytes })}\n`;
}

/**
 * Serialises `record` as one JSON line of at most `maxBytes` UTF-8 bytes, newline included. A
 * record that fits is written as it is; a longer one is cut with {@link boundRecord}, and one
 * that cannot be cut enough becomes a stub `{ type, invocation_id, truncated: ["*"],
 * original_bytes }`. JSON escapes lone surrogates, so the line is always valid UTF-8. Never
 * throws: a record JSON cannot serialise (a cycle, a BigInt) comes back as `ok: false`.
 * @param maxBytes the bound on the line. @default MAX_TRACE_LINE_BYTES
 */
export function serializeTraceLine(record: object, maxBytes: number = MAX_TRACE_LINE_BYTES): SerializedTraceLine {
  let json: string | undefined;
  try {
    json = JSON.stringify(record);
  } catch (error) {
    return { ok: false, reason: `the record cannot be serialised as JSON (${errorMessage(error)})` };
  }
  if (typeof json !== "string") return { ok: false, reason: "the record serialises to nothing" };
  const line = `${json}\n`;
  if (fits(line, maxBytes)) return { ok: true, line };
  // Parsing the JSON back gives plain data: toJSON applied, undefined fields gone.
  const plain = JSON.parse(json) as unknown;
  if (plain === null || typeof plain !== "object" || Array.isArray(plain))
    return { ok: false, reason: "the record is not a JSON object" };
  const bounded = `${JSON.stringify(boundRecord(plain, maxBytes))}\n`;
  if (fits(bounded, maxBytes)) return { ok: true, line: bounded };
  return { ok: true, line: stub(plain as Record<string, unknown>, Buffer.byteLength(json, "utf8")) };
}
