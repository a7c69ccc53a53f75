import { describe, expect, it } from "vitest";
import { parseSince } from "../../../src/trace/summary/since.js";
import { summarizeTraceLines } from "../../../src/trace/summary/summarize-records.js";

const NOW = Date.UTC(2026, 11, 2, 12, 0, 0);

/** A success line whose labels are all `label`. */
function lineLabelled(label: string): string {
  return JSON.stringify({
    type: "tool_invocation",
    status: "success",
    started_at: "2026-12-01T00:00:00Z",
    duration_ms: 1,
    tool_name: label,
    input: { query: "q" },
    retrieval_details: {
      retrieval_layer: label,
      fallback_reason: label,
      relevance: { level: label },
      l1: { status: label },
      evidence_count: 1,
    },
  });
}

describe("summaries of trace values named like Object.prototype members", () => {
  it("counts __proto__, constructor and toString as ordinary labels", () => {
    const labels = ["__proto__", "constructor", "toString", "hasOwnProperty"];
    const summary = summarizeTraceLines([...labels, ...labels].map(lineLabelled));

    const expected = Object.fromEntries(labels.map((label) => [label, 2]));
    for (const counts of [
      summary.toolName,
      summary.retrievalLayer,
      summary.fallbackReason,
      summary.relevanceLevel,
      summary.l1Status,
    ]) {
      expect(JSON.parse(JSON.stringify(counts))).toEqual(expected);
      for (const label of labels) expect(Object.getOwnPropertyDescriptor(counts, label)?.value).toBe(2);
    }
  });
});

describe("parseSince on impossible calendar dates", () => {
  it("rejects a day past the end of its month instead of rolling over into the next", () => {
    expect(parseSince("2026-02-30", NOW)).toBeNull();
    expect(parseSince("2026-04-31T08:00", NOW)).toBeNull();
    expect(parseSince("2026-02-29", NOW)).toBeNull();
  });

  it("still reads the last day of a month and a leap day", () => {
    expect(parseSince("2028-02-29", NOW)).toBe(Date.UTC(2028, 1, 29));
    expect(parseSince("2026-04-30T23:59:59Z", NOW)).toBe(Date.UTC(2026, 3, 30, 23, 59, 59));
  });
});
