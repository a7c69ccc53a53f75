import { describe, expect, it } from "vitest";
import type { LatencySummary } from "../../bench/measure/percentile.js";
import { serveLines } from "../../bench/report/serve-lines.js";

const latency = (p50: number, p99: number): LatencySummary => ({
  n: 200,
  mean: p50,
  p50,
  p95: p99,
  p99,
  min: 1,
  max: p99,
});

describe("serveLines", () => {
  it("prints nothing when the serve run neither ran nor failed", () => {
    expect(serveLines({ serve: null, failures: [] })).toEqual([]);
    expect(serveLines({ failures: [] })).toEqual([]);
  });

  it("puts the flooded lookups beside the idle ones as ratios to the idle p50, with the targets and the load rows", () => {
    const text = serveLines({
      serve: {
        size: 10_000,
        fairShare: { maxCallsInFlight: 2, maxQueuedCalls: 64 },
        idle: latency(10, 30),
        underFlood: latency(20, 150),
        flood: {
          concurrent: 5,
          batchSize: 100,
          batches: 40,
          answered: 900,
          refusedCalls: 3000,
          refused429: 12,
          otherStatus: 0,
        },
        targetsMet: { p50Within3x: true, p99Within10x: false },
        load: [{ clients: 10, calls: 400, wallMs: 4000, throughputPerS: 100, latency: latency(90, 200) }],
      },
      failures: [],
    }).join("\n");
    expect(text).toContain("fair share per token 2 running, 64 queued");
    expect(text).toMatch(/one token flooding\s+200\s+20\.0\s+150\s+2\.0x\s+15x/);
    expect(text).toContain("p50 within 3x of idle p50 met; p99 within 10x NOT met");
    expect(text).toMatch(/\n10\s+400\s+100\s+90\.0\s+200/);
  });

  it("says the run failed, with what it measured before", () => {
    const lines = serveLines({
      serve: { size: 10_000, idle: latency(10, 30) },
      failures: [{ step: "serve", size: 10_000, message: "serve exited (1) before listening" }],
    });
    expect(lines.at(-1)).toBe("  FAILED: serve exited (1) before listening");
    expect(lines.join("\n")).toContain("another token, idle");
  });
});
