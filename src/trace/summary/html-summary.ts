/** A {@link TraceSummary} as a self-contained HTML report (pure; every value escaped). */
import type { LatencyPercentiles } from "./latency-sample.js";
import type { TraceSummary } from "./trace-summary.js";

/** `text` safe inside HTML text and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const cell = (value: string | number | null) =>
  `<td>${escapeHtml(value === null ? "-" : typeof value === "number" ? String(Number(value.toFixed(2))) : value)}</td>`;
const head = (names: string[]) => `<tr>${names.map((name) => `<th>${escapeHtml(name)}</th>`).join("")}</tr>`;

function table(title: string, header: string[], rows: (string | number | null)[][]): string {
  const body =
    rows.length === 0
      ? `<tr><td colspan="${header.length}">none</td></tr>`
      : rows.map((row) => `<tr>${row.map(cell).join("")}</tr>`).join("\n");
  return `<h2>${escapeHtml(title)}</h2>\n<table>\n${head(header)}\n${body}\n</table>`;
}

const counted = (counts: Record<string, number>) => Object.entries(counts).sort((a, b) => b[1] - a[1]);
const latency = (name: string, p: LatencyPercentiles) => [name, p.count, p.p50, p.p95, p.p99, p.max];

/** The summary as one HTML page with inline CSS, no script and nothing fetched. */
export function htmlTraceSummary(summary: TraceSummary, file: string): string {
  const { lines } = summary;
  const sections = [
    table("Status", ["status", "records"], counted(summary.status)),
    table("Retrieval layer", ["layer", "records"], counted(summary.retrievalLayer)),
    table("Fallback reason", ["reason", "records"], counted(summary.fallbackReason)),
    table("Relevance level", ["level", "records"], counted(summary.relevanceLevel)),
    table("Error type", ["error type", "records"], counted(summary.errorType)),
    table(
      "Latency (ms)",
      ["stage", "count", "p50", "p95", "p99", "max"],
      [
        latency("duration", summary.latencyMs.duration),
        ...Object.entries(summary.latencyMs.stages).map(([n, p]) => latency(n, p)),
      ],
    ),
    table(
      "Domain filter",
      ["domain", "lookups", "forced", "hinted by L0"],
      summary.domainFilter.domains.map((u) => [u.domain, u.total, u.forced, u.hinted]),
    ),
    table(
      "Top queries with no evidence",
      ["lookups", "query"],
      summary.noEvidenceQueries.map((q) => [q.count, q.query]),
    ),
    table(
      "Top queries with low relevance",
      ["lookups", "query"],
      summary.lowRelevanceQueries.map((q) => [q.count, q.query]),
    ),
  ];
  const facts =
    `${lines.records} records; ${lines.read} lines read, ${lines.skipped} lines skipped${lines.partialLastLine ? " (a partial last line included)" : ""}; ` +
    `domain filter: ${summary.domainFilter.forced} forced, ${summary.domainFilter.hinted} hinted, ${summary.domainFilter.unfiltered} unfiltered` +
    (summary.since ? `; since ${summary.since}` : "");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Trace summary: ${escapeHtml(file)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse;margin-bottom:1em}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}td{white-space:pre-wrap;word-break:break-word}</style>
</head><body>
<h1>Trace summary</h1>
<p>${escapeHtml(file)}</p>
<p>${escapeHtml(facts)}</p>
${sections.join("\n")}
</body></html>
`;
}
