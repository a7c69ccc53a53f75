import { describe, expect, it } from "vitest";
import { serializeTraceLine } from "../../src/trace/trace-line.js";
import { MAX_TRACE_LINE_BYTES } from "../../src/trace/trace-limits.js";
import { isValidUtf8Line, LIMIT_BYTES } from "./trace-inputs.js";

function lineOf(record: object): string {
  const serialised = serializeTraceLine(record);
  if (!serialised.ok) throw new Error(serialised.reason);
  return serialised.line;
}

/** A record whose line is exactly `bytes` long, newline included. */
function recordOfLineBytes(bytes: number): { type: string; invocation_id: string; padding: string } {
  const empty = Buffer.byteLength(`${JSON.stringify({ type: "t", invocation_id: "i", padding: "" })}\n`);
  return { type: "t", invocation_id: "i", padding: "p".repeat(bytes - empty) };
}

describe("serializeTraceLine", () => {
  it("bounds every line to 64 KiB, newline included", () => {
    expect(MAX_TRACE_LINE_BYTES).toBe(LIMIT_BYTES);
  });

  it("writes a record that fits as it is, on one line ending in a newline", () => {
    const record = { type: "tool_invocation", invocation_id: "a", note: "line\nbreak" };

    expect(lineOf(record)).toBe(`${JSON.stringify(record)}\n`);
  });

  it("keeps a line of exactly 64 KiB whole and cuts one a byte longer", () => {
    const exact = lineOf(recordOfLineBytes(LIMIT_BYTES));
    const over = lineOf(recordOfLineBytes(LIMIT_BYTES + 1));

    expect(Buffer.byteLength(exact)).toBe(LIMIT_BYTES);
    expect(JSON.parse(exact)).not.toHaveProperty("truncated");
    expect(Buffer.byteLength(over)).toBeLessThanOrEqual(LIMIT_BYTES);
    expect(JSON.parse(over)).toMatchObject({ type: "t", invocation_id: "i", truncated: ["padding"] });
  });

  it("cuts any record to the bound: a 3 MB string and 100,000 list items", () => {
    const line = lineOf({
      type: "custom",
      invocation_id: "big",
      payload: "漢".repeat(1_000_000),
      items: Array.from({ length: 100_000 }, (_, i) => `item-${i}`),
    });
    const parsed = JSON.parse(line) as {
      type: string;
      invocation_id: string;
      payload: string;
      items: string[];
      truncated: string[];
    };

    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(LIMIT_BYTES);
    expect(isValidUtf8Line(line)).toBe(true);
    expect(parsed).toMatchObject({ type: "custom", invocation_id: "big" });
    expect(parsed.items[0]).toBe("item-0");
    expect(parsed.truncated.sort()).toEqual(["items", "payload"]);
  });

  it("falls back to a stub that names the record when even empty fields do not fit", () => {
    const record: Record<string, string> = { type: "custom", invocation_id: "wide" };
    for (let i = 0; i < 20_000; i++) record[`field_${i}`] = "v";
    const line = lineOf(record);

    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(LIMIT_BYTES);
    expect(JSON.parse(line)).toEqual({
      type: "custom",
      invocation_id: "wide",
      truncated: ["*"],
      original_bytes: Buffer.byteLength(JSON.stringify(record)),
    });
  });

  it("reports a record that cannot be serialised instead of throwing", () => {
    const cyclic: Record<string, unknown> = { type: "custom" };
    cyclic.self = cyclic;

    expect(serializeTraceLine(cyclic)).toMatchObject({ ok: false, reason: expect.stringContaining("circular") });
    expect(serializeTraceLine({ big: 1n })).toMatchObject({ ok: false });
  });
});
