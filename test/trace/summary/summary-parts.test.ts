import { describe, expect, it } from "vitest";
import { BoundedCounter } from "../../../src/trace/summary/bounded-counter.js";
import { escapeHtml, htmlTraceSummary } from "../../../src/trace/summary/html-summary.js";
import { LatencySample } from "../../../src/trace/summary/latency-sample.js";
import { parseSince } from "../../../src/trace/summary/since.js";
import { summarizeTraceLines } from "../../../src/trace/summary/summarize-records.js";
import { escapeControls, shownQuery } from "../../../src/trace/summary/untrusted-text.js";

const NOW = Date.UTC(2026, 11, 2, 12, 0, 0);

describe("parseSince", () => {
  it("reads ages in seconds, minutes, hours, days and weeks before now", () => {
    expect(parseSince("30s", NOW)).toBe(NOW - 30_000);
    expect(parseSince("90m", NOW)).toBe(NOW - 90 * 60_000);
    expect(parseSince("24h", NOW)).toBe(NOW - 86_400_000);
    expect(parseSince("7d", NOW)).toBe(NOW - 7 * 86_400_000);
    expect(parseSince("2w", NOW)).toBe(NOW - 14 * 86_400_000);
  });

  it("reads ISO dates and date-times as UTC unless they carry an offset", () => {
    expect(parseSince("2026-12-01", NOW)).toBe(Date.UTC(2026, 11, 1));
    expect(parseSince("2026-12-01T08:30", NOW)).toBe(Date.UTC(2026, 11, 1, 8, 30));
    expect(parseSince("2026-12-01T08:30:15.5Z", NOW)).toBe(Date.UTC(2026, 11, 1, 8, 30, 15, 500));
    expect(parseSince("2026-12-01T08:30+02:00", NOW)).toBe(Date.UTC(2026, 11, 1, 6, 30));
  });

  it("refuses anything else", () => {
    for (const bad of ["", "yesterday", "24", "h24", "-3d", "7 days", "2026-13-45", "2026/12/01", "1e3h"])
      expect(parseSince(bad, NOW)).toBeNull();
  });
});

describe("LatencySample", () => {
  it("gives exact nearest-rank percentiles while it holds every value", () => {
    const sample = new LatencySample(100);
    for (let v = 100; v >= 1; v--) sample.add(v);

    expect(sample.percentiles()).toEqual({ count: 100, p50: 50, p95: 95, p99: 99, max: 100, approximate: false });
  });

  it("keeps at most its capacity, says its percentiles are sampled, and still counts every value and the exact max", () => {
    const sample = new LatencySample(1000);
    for (let v = 0; v < 50_000; v++) sample.add(v % 100);
    sample.add(12_345);
    const p = sample.percentiles();

    expect(p).toMatchObject({ count: 50_001, max: 12_345, approximate: true });
    // A uniform sample of 1000 of a uniform 0..99 lands near the middle; bounds are loose, not timing.
    expect(p.p50).toBeGreaterThanOrEqual(40);
    expect(p.p50).toBeLessThanOrEqual(60);
  });

  it("ignores values that are not finite numbers at least 0", () => {
    const sample = new LatencySample();
    for (const value of [Number.NaN, -1, Number.POSITIVE_INFINITY, "3", null, 4]) sample.add(value);

    expect(sample.percentiles()).toMatchObject({ count: 1, p50: 4 });
  });
});

describe("BoundedCounter", () => {
  it("counts exactly within its capacity", () => {
    const counter = new BoundedCounter(10);
    for (const key of ["a", "b", "a", "c", "a", "b"]) counter.add(key);

    expect(counter.top(2)).toEqual([
      { key: "a", count: 3 },
      { key: "b", count: 2 },
    ]);
    expect(counter.approximate).toBe(false);
  });

  it("drops the rarest keys past its capacity, keeps the frequent ones, and says so", () => {
    const counter = new BoundedCounter(100);
    for (let i = 0; i < 5_000; i++) {
      counter.add("frequent");
      counter.add(`rare-${i}`);
    }

    expect(counter.top(1)).toEqual([{ key: "frequent", count: 5_000 }]);
    expect(counter.approximate).toBe(true);
  });
});

describe("untrusted trace text", () => {
  it("escapes terminal escapes, controls and bidirectional overrides", () => {
    expect(escapeControls("a\u001b[31mb\u0007c\u202ed\u0085")).toBe("a\\u{001b}[31mb\\u{0007}c\\u{202e}d\\u{0085}");
  });

  it("collapses whitespace and cuts a query before escaping it", () => {
    expect(shownQuery("  two\n\nlines\there ")).toBe("two lines here");
    expect(shownQuery("x".repeat(500), 10)).toBe(`${"x".repeat(9)}…`);
  });

  it("writes an HTML report in which no query text can open a tag", () => {
    const line = JSON.stringify({
      type: "tool_invocation",
      status: "success",
      started_at: "2026-12-01T00:00:00Z",
      duration_ms: 1,
      input: { query: "<script>alert(1)</script>", domain: null, limit: 5 },
      retrieval_details: {
        retrieval_layer: "none",
        l1: { status: "empty", domain_filter: "<b>x</b>" },
        fallback_reason: "l1_empty",
        relevance: { level: "none" },
        evidence_count: 0,
      },
    });
    const html = htmlTraceSummary(summarizeTraceLines([line]), "<file>.jsonl");

    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>x");
    expect(html).toContain(escapeHtml("<script>alert(1)</script>"));
    expect(html).toMatch(/^<!doctype html>/);
  });
});
