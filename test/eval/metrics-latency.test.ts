import { describe, expect, it } from "vitest";
import { percentile, summarizeLatency } from "../../src/eval/metrics/latency.js";
import { stageMedians, topEntries, cutText } from "../../src/eval/runner/query-details.js";
import { evidenceBlock, lookupResult } from "./helpers/assertion-context.js";

describe("summarizeLatency", () => {
  it("gives the mean, the nearest-rank p50, p95 and p99, and the maximum", () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i); // 1..100 in reverse
    expect(summarizeLatency(values)).toEqual({ queries: 100, meanMs: 50.5, p50Ms: 50, p95Ms: 95, p99Ms: 99, maxMs: 100 });
  });

  it("uses the only value for every percentile of one lookup", () => {
    expect(summarizeLatency([7.5])).toEqual({ queries: 1, meanMs: 7.5, p50Ms: 7.5, p95Ms: 7.5, p99Ms: 7.5, maxMs: 7.5 });
  });

  it("reports zeros for no lookups", () => {
    expect(summarizeLatency([])).toEqual({ queries: 0, meanMs: 0, p50Ms: 0, p95Ms: 0, p99Ms: 0, maxMs: 0 });
  });

  it("keeps the percentiles ordered: p50 ≤ p95 ≤ p99 ≤ max", () => {
    const values = [3, 9, 1, 27, 4, 4, 12, 0.5, 80, 2];
    const s = summarizeLatency(values);
    expect(s.p50Ms).toBeLessThanOrEqual(s.p95Ms);
    expect(s.p95Ms).toBeLessThanOrEqual(s.p99Ms);
    expect(s.p99Ms).toBeLessThanOrEqual(s.maxMs);
    expect(percentile(values, 100)).toBe(80);
  });
});

describe("query details", () => {
  it("keeps the first documents with their score to four places and their hit reasons joined", () => {
    const result = lookupResult({
      evidence: [
        evidenceBlock("d1", ["L0:title:aspirin", "L0:bm25:12.31", "L1:similarity:0.61"], { score: 0.987654 }),
        evidenceBlock("d2", ["L1:similarity:0.40"], { score: 0.5 }),
        evidenceBlock("d3", ["L0:bm25:1.00"], { score: 0.1 }),
      ],
    });
    expect(topEntries(result, 2)).toEqual([
      { doc: "d1", score: 0.9877, reasons: "L0:title:aspirin; L0:bm25:12.31; L1:similarity:0.61" },
      { doc: "d2", score: 0.5, reasons: "L1:similarity:0.40" },
    ]);
  });

  it("cuts long hit reasons with an ellipsis", () => {
    const long = `L0:body:${"word,".repeat(60)}`;
    const [entry] = topEntries(lookupResult({ evidence: [evidenceBlock("d1", [long], { score: 1 })] }), 10);
    expect(entry.reasons.length).toBe(120);
    expect(entry.reasons.endsWith("…")).toBe(true);
    expect(cutText("short", 10)).toBe("short");
  });

  it("takes the median of each stage over the lookups, leaving out the total and the trace", () => {
    const timed = (l0Ms: number, l1Ms: number) => lookupResult({ timings: { l0Ms, embedMs: 0.5, l1Ms, mergeMs: 1, traceMs: 5, totalMs: 99 } });
    expect(stageMedians([timed(1, 10), timed(3, 30), timed(2, 20)])).toEqual({ l0: 2, embed: 0.5, l1: 20, merge: 1 });
    expect(stageMedians([lookupResult({})])).toEqual({});
  });
});
