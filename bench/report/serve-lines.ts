import type { BenchReport } from "./report-model.js";
import { formatMs, formatRatio, formatTable } from "./text-table.js";

const met = (value: boolean | undefined) => (value === undefined ? "?" : value ? "met" : "NOT met");

/** The serve rows: another token's lookups idle and under one token's flood, against the targets, then load from many clients. Pure. */
export function serveLines(report: Pick<BenchReport, "serve" | "failures">): string[] {
  const serve = report.serve;
  const failure = report.failures.find((f) => f.step === "serve");
  if ((serve === null || serve === undefined) && !failure) return [];
  const lines: string[] = [];
  if (serve?.idle !== undefined) {
    const share = serve.fairShare;
    lines.push(
      `serve --http at ${serve.size?.toLocaleString("en-US") ?? "?"} chunks (SDK clients on loopback; fair share per token ${share?.maxCallsInFlight ?? "?"} running, ${share?.maxQueuedCalls ?? "?"} queued):`,
    );
    const rows = [["another token, idle", serve.idle] as const];
    const flooded =
      serve.underFlood === undefined ? [] : [["another token, one token flooding", serve.underFlood] as const];
    lines.push(
      formatTable(
        ["lookups", "n", "p50 ms", "p99 ms", "p50 / idle p50", "p99 / idle p50"],
        [...rows, ...flooded].map(([name, latency]) => [
          name,
          String(latency.n),
          formatMs(latency.p50),
          formatMs(latency.p99),
          formatRatio(latency.p50 / serve.idle!.p50),
          formatRatio(latency.p99 / serve.idle!.p50),
        ]),
      ),
    );
  }
  if (serve?.flood !== undefined) {
    const f = serve.flood;
    lines.push(
      `  flood: ${f.concurrent} concurrent batches of ${f.batchSize}, re-sent at once: ${f.batches} batches, ${f.answered} calls answered, ${f.refusedCalls} refused with -32029, ${f.refused429} batches refused with 429, ${f.otherStatus} other statuses`,
      `  targets: p50 within 3x of idle p50 ${met(serve.targetsMet?.p50Within3x)}; p99 within 10x ${met(serve.targetsMet?.p99Within10x)}`,
    );
  }
  if (serve?.load !== undefined && serve.load.length > 0)
    lines.push(
      formatTable(
        ["clients (a token each)", "lookups", "lookups/s", "p50 ms", "p99 ms"],
        serve.load.map((row) => [
          String(row.clients),
          String(row.calls),
          row.throughputPerS.toFixed(0),
          formatMs(row.latency.p50),
          formatMs(row.latency.p99),
        ]),
      ),
    );
  if (failure) lines.push(`  FAILED: ${failure.message}`);
  return lines;
}
