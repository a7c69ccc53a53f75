import { describe, expect, it } from "vitest";
import { summarizeTraceLines } from "../../../src/trace/summary/summarize-records.js";
import {
  expectedPercentile,
  FIRST_STARTED_AT,
  generatedLines,
  generatedRecord,
  JUNK_LINES,
  PARTIAL_LINE,
  type GeneratedRecord,
} from "./helpers/generated-trace.js";

const RECORDS = 100_000;

/** What the summary must say, counted from the generated records one by one. */
function expected(records: number, fromIndex = 0) {
  const count = (key: string, map: Map<string, number>) => map.set(key, (map.get(key) ?? 0) + 1);
  const status = new Map<string, number>();
  const layer = new Map<string, number>();
  const fallback = new Map<string, number>();
  const level = new Map<string, number>();
  const durations: number[] = [];
  const l0: number[] = [];
  const noEvidence = new Map<string, number>();
  const low = new Map<string, number>();
  let forced = 0;
  let hinted = 0;
  let unfiltered = 0;
  for (let i = fromIndex; i < records; i++) {
    const record = generatedRecord(i) as unknown as GeneratedRecord;
    count(record.status, status);
    durations.push(record.duration_ms);
    const details = record.retrieval_details;
    if (details === null) continue;
    l0.push(record.durations_ms.l0);
    count(details.retrieval_layer, layer);
    count(details.fallback_reason ?? "none", fallback);
    count(details.relevance.level, level);
    if (details.l1.domain_filter === null) unfiltered++;
    else if (record.input.domain !== null) forced++;
    else hinted++;
    const shown = record.input.query.replace(/\u001b/g, "\\u{001b}");
    if (details.evidence_count === 0) count(shown, noEvidence);
    else if (details.relevance.level === "low" || details.relevance.level === "none") count(shown, low);
  }
  const top = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 10)
      .map(([query, n]) => ({ query, count: n }));
  return {
    status,
    layer,
    fallback,
    level,
    durations,
    l0,
    forced,
    hinted,
    unfiltered,
    noEvidence: top(noEvidence),
    low: top(low),
  };
}

describe("summarizeTraceLines on a generated trace of 100,000 records", () => {
  const lines = generatedLines(RECORDS);
  const summary = summarizeTraceLines(lines, { partialLastLine: PARTIAL_LINE });
  const want = expected(RECORDS);

  it("counts the lines it read, the records, and every line it skipped (the partial last line included)", () => {
    const junkBlocks = Math.floor((RECORDS - 1) / 10_000);
    expect(summary.lines).toEqual({
      read: RECORDS + junkBlocks * JUNK_LINES.length + 1,
      records: RECORDS,
      skipped: junkBlocks * 3 + 1,
      partialLastLine: true,
      otherRecords: junkBlocks,
      outsideWindow: 0,
    });
  });

  it("counts records by status, layer, fallback reason and relevance level exactly", () => {
    expect(summary.status).toEqual(Object.fromEntries(want.status));
    expect(summary.retrievalLayer).toEqual(Object.fromEntries(want.layer));
    expect(summary.fallbackReason).toEqual(Object.fromEntries(want.fallback));
    expect(summary.relevanceLevel).toEqual(Object.fromEntries(want.level));
    expect(summary.errorType).toEqual({ EMBEDDINGS_FAILED: want.status.get("error") });
  });

  it("gives the exact nearest-rank p50, p95 and p99 of duration_ms and of a stage", () => {
    for (const [p, key] of [
      [50, "p50"],
      [95, "p95"],
      [99, "p99"],
    ] as const) {
      expect(summary.latencyMs.duration[key]).toBe(expectedPercentile(want.durations, p));
      expect(summary.latencyMs.stages.l0[key]).toBe(expectedPercentile(want.l0, p));
    }
    expect(summary.latencyMs.duration).toMatchObject({
      count: RECORDS,
      max: Math.max(...want.durations),
      approximate: false,
    });
    expect(Object.keys(summary.latencyMs.stages).sort()).toEqual(["embed", "l0", "l1", "merge", "total"]);
  });

  it("tells forced domain filters from hinted ones, per domain", () => {
    expect(summary.domainFilter).toMatchObject({
      forced: want.forced,
      hinted: want.hinted,
      unfiltered: want.unfiltered,
    });
    expect(summary.domainFilter.domains).toEqual([
      { domain: "it", total: want.hinted, forced: 0, hinted: want.hinted },
      { domain: "billing", total: want.forced, forced: want.forced, hinted: 0 },
    ]);
  });

  it("lists the most asked queries with no evidence and with low relevance, control characters escaped", () => {
    expect(summary.noEvidenceQueries).toEqual(want.noEvidence);
    expect(summary.lowRelevanceQueries).toEqual(want.low);
    const all = summarizeTraceLines(lines, { top: 40 });
    expect(all.noEvidenceQueries).toContainEqual({
      query: "evil \\u{001b}[31mred\\u{001b}[0m query",
      count: RECORDS / 1000,
    });
    expect(JSON.stringify(all)).not.toMatch(/\u001b/);
    expect(summary.countsApproximate).toBe(false);
  });

  it("keeps only the records started at or after --since, and counts the others", () => {
    const fromIndex = 60_000;
    const since = summarizeTraceLines(lines, { since: FIRST_STARTED_AT + fromIndex * 1000 });
    const later = expected(RECORDS, fromIndex);

    expect(since.lines.records).toBe(RECORDS - fromIndex);
    expect(since.lines.outsideWindow).toBe(fromIndex);
    expect(since.status).toEqual(Object.fromEntries(later.status));
    expect(since.latencyMs.duration.p95).toBe(expectedPercentile(later.durations, 95));
    expect(since.firstStartedAt).toBe(new Date(FIRST_STARTED_AT + fromIndex * 1000).toISOString());
  });
});

describe("summarizeTraceLines on odd records", () => {
  it("counts a stub line (a record cut to its id) as a record of unknown status with no details", () => {
    const summary = summarizeTraceLines([
      '{"type":"tool_invocation","invocation_id":"x","truncated":["*"],"original_bytes":99999}',
    ]);

    expect(summary.status).toEqual({ unknown: 1 });
    expect(summary.retrievalLayer).toEqual({});
    expect(summary.latencyMs.duration.count).toBe(0);
  });

  it("reports an empty trace with zero counts and null percentiles", () => {
    const summary = summarizeTraceLines([]);

    expect(summary.lines.records).toBe(0);
    expect(summary.latencyMs.duration).toEqual({
      count: 0,
      p50: null,
      p95: null,
      p99: null,
      max: null,
      approximate: false,
    });
  });
});
