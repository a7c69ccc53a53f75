/** A {@link TraceSummary} as the text tables `traces summary` prints (pure). */
import type { LatencyPercentiles } from "./latency-sample.js";
import type { QueryCount, TraceSummary } from "./trace-summary.js";
import { escapeControls } from "./untrusted-text.js";

const ms = (value: number | null) => (value === null ? "-" : value.toFixed(2));
const share = (count: number, total: number) => (total === 0 ? "" : ` (${((100 * count) / total).toFixed(1)}%)`);

/** `name  count (share)` rows of one breakdown, most frequent first. */
function breakdown(title: string, counts: Record<string, number>): string[] {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (entries.length === 0) return [];
  const total = entries.reduce((sum, [, count]) => sum + count, 0);
  const width = Math.max(...entries.map(([name]) => name.length));
  return [
    `${title}:`,
    ...entries.map(([name, count]) => `  ${name.padEnd(width)}  ${String(count).padStart(7)}${share(count, total)}`),
    "",
  ];
}

function latencyRow(name: string, p: LatencyPercentiles): string {
  return `  ${name.padEnd(10)} ${String(p.count).padStart(8)} ${ms(p.p50).padStart(10)} ${ms(p.p95).padStart(10)} ${ms(p.p99).padStart(10)} ${ms(p.max).padStart(10)}${p.approximate ? "  (sampled)" : ""}`;
}

function queries(title: string, list: QueryCount[]): string[] {
  if (list.length === 0) return [`${title}: none`, ""];
  return [`${title}:`, ...list.map(({ query, count }) => `  ${String(count).padStart(6)}  ${query}`), ""];
}

function domainRows({ domainFilter: { domains } }: TraceSummary): string[] {
  const width = Math.max(0, ...domains.map((use) => use.domain.length));
  return domains.map(
    (use) =>
      `  ${use.domain.padEnd(width)}  ${String(use.total).padStart(7)}  (forced ${use.forced}, hinted ${use.hinted})`,
  );
}

/** The summary as plain text tables (query text already escaped by the summariser). */
export function formatTraceSummary(summary: TraceSummary, file: string): string {
  const { lines } = summary;
  const out = [
    `Trace ${escapeControls(file)}: ${lines.records} record${lines.records === 1 ? "" : "s"}${summary.since ? ` since ${summary.since}` : ""}` +
      (summary.firstStartedAt ? `, ${summary.firstStartedAt} to ${summary.lastStartedAt}` : ""),
    `${lines.read} lines read, ${lines.skipped} lines skipped${lines.partialLastLine ? " (a partial last line included)" : ""}` +
      `${lines.otherRecords > 0 ? `, ${lines.otherRecords} other records` : ""}${lines.outsideWindow > 0 ? `, ${lines.outsideWindow} before --since` : ""}`,
    "",
    ...breakdown("Status", summary.status),
    ...breakdown("Error type", summary.errorType),
    ...breakdown("Retrieval layer", summary.retrievalLayer),
    ...breakdown("Fallback reason", summary.fallbackReason),
    ...breakdown("Relevance level", summary.relevanceLevel),
    ...breakdown("L1 status", summary.l1Status),
    ...breakdown("Tool name", summary.toolName),
    "Latency (ms):",
    `  ${"stage".padEnd(10)} ${"count".padStart(8)} ${"p50".padStart(10)} ${"p95".padStart(10)} ${"p99".padStart(10)} ${"max".padStart(10)}`,
    latencyRow("duration", summary.latencyMs.duration),
    ...Object.entries(summary.latencyMs.stages).map(([stage, p]) => latencyRow(stage, p)),
    "",
    `Domain filter: ${summary.domainFilter.forced} forced, ${summary.domainFilter.hinted} hinted by L0, ${summary.domainFilter.unfiltered} unfiltered`,
    ...domainRows(summary),
    "",
    ...queries("Top queries with no evidence", summary.noEvidenceQueries),
    ...queries("Top queries with low relevance", summary.lowRelevanceQueries),
  ];
  if (summary.countsApproximate)
    out.push("Query and domain counts are approximate: more distinct values than are kept.", "");
  return `${out.join("\n").trimEnd()}\n`;
}
