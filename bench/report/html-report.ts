import type { BenchReport } from "./report-model.js";
import { GOALS } from "./goals.js";
import { escapeHtml, groupedBarChart, stackedShareChart, type BarGroup, type StackedRow } from "./svg-charts.js";
import { reloadLines } from "./reload-lines.js";
import { syncLines } from "./sync-lines.js";
import { parseLines } from "./parse-lines.js";
import {
  buildLine,
  filterLines,
  goalTable,
  incrementalLines,
  latencyTable,
  ratioLine,
  stageTable,
  type TextTable,
} from "./summary-rows.js";

function htmlTable({ header, rows }: TextTable, className = ""): string {
  const head = header.map((cell) => `<th>${escapeHtml(cell)}</th>`).join("");
  const body = rows
    .map(
      (row) =>
        `<tr>${row.map((cell) => `<td${cell === "NOT MET" ? ' class="bad"' : cell === "met" ? ' class="good"' : ""}>${escapeHtml(cell)}</td>`).join("")}</tr>`,
    )
    .join("");
  return `<table class="${className}"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function latencyChart(report: BenchReport): string {
  const groups: BarGroup[] = report.sizes
    .filter((size) => size.query)
    .map((size) => ({
      title: `${size.size.toLocaleString("en-US")} chunks`,
      rows: (size.query?.systems ?? []).map((system) => ({
        label: system.label,
        values: [system.latency.p50, system.latency.p99],
      })),
    }));
  return groups.length === 0
    ? "<p>No latency was measured.</p>"
    : groupedBarChart({ groups, series: ["p50", "p99"], scale: "log", unit: "ms" });
}

function ratioChart(report: BenchReport): string {
  const groups: BarGroup[] = report.sizes
    .filter((size) => size.ratios && size.query)
    .map((size) => ({
      title: `${size.size.toLocaleString("en-US")} chunks (floor p50 ${size.ratios?.floorP50.toFixed(2)} ms)`,
      rows: (size.query?.systems ?? []).map((system) => {
        const r = size.ratios?.toFloor.find((entry) => entry.id === system.id);
        return { label: system.label, values: [r?.p50ToFloor ?? null, r?.p99ToFloor ?? null] };
      }),
    }));
  const limitOf = (id: string) => GOALS.find((goal) => goal.id === id)?.limit;
  const markers = [{ value: 1, label: "floor" }];
  const p50Goal = limitOf("tool_p50_floor");
  const p99Goal = limitOf("tool_p99_floor");
  if (p50Goal !== undefined) markers.push({ value: p50Goal, label: `p50 goal ${p50Goal}x` });
  if (p99Goal !== undefined) markers.push({ value: p99Goal, label: `p99 goal ${p99Goal}x` });
  return groups.length === 0
    ? "<p>No ratios.</p>"
    : groupedBarChart({ groups, series: ["p50 / floor p50", "p99 / floor p50"], scale: "log", unit: "x", markers });
}

function buildChart(report: BenchReport): string {
  const rows: StackedRow[] = report.sizes.flatMap((size) => {
    if (!size.build) return [];
    const build = size.build;
    const segments = [
      ...build.phases.map((p) => ({ name: p.phase, value: p.durationMs })),
      { name: "save", value: build.saveMs },
    ];
    const attributed = build.phases.reduce((sum, p) => sum + p.durationMs, 0);
    if (build.buildMs - attributed > 1)
      segments.splice(build.phases.length, 0, { name: "other", value: build.buildMs - attributed });
    return [
      {
        label: `${size.size.toLocaleString("en-US")} chunks`,
        totalLabel: `${((build.buildMs + build.saveMs) / 1000).toFixed(1)} s`,
        segments,
      },
    ];
  });
  const names = [...new Set(rows.flatMap((row) => row.segments.map((s) => s.name)))];
  return rows.length === 0 ? "<p>No build was measured.</p>" : stackedShareChart(rows, names);
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}
h1{font-size:20px}h2{font-size:17px;margin-top:28px}h3{font-size:15px}
table{border-collapse:collapse;margin:8px 0}th,td{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}
th:first-child,td:first-child{text-align:left}td.bad{color:#b00;font-weight:600}td.good{color:#070}
svg text{font:11px system-ui,sans-serif;fill:#333}svg .group{font-weight:600;font-size:12px}svg .tick{fill:#777}
svg .value{fill:#555;font-size:10px}svg .grid{stroke:#e4e4e4}svg .marker{stroke:#b00;stroke-dasharray:4 3}
svg .marker-label{fill:#b00}svg .in-bar{fill:#fff;font-size:10px}pre{background:#f6f6f6;padding:8px;overflow:auto}`;

/** The self-contained HTML page of a run: charts (inline SVG), tables, goals, machine. Pure. */
export function renderHtmlReport(report: BenchReport): string {
  const sizes = report.sizes
    .map((size) => {
      const parts = [`<h3>${size.size.toLocaleString("en-US")} chunks</h3>`, `<p>${escapeHtml(buildLine(size))}</p>`];
      if (size.query) {
        parts.push(htmlTable(latencyTable(size)), `<p>${escapeHtml(ratioLine(size))}</p>`, htmlTable(stageTable(size)));
        if (size.query.toolStages === null)
          parts.push(
            "<p>The tool's artifact has no <code>timings</code> yet: the stage figures are the stages timed alone.</p>",
          );
        parts.push(
          `<p>Set-up the bench did for the other systems (ms): ${escapeHtml(JSON.stringify(Object.fromEntries(Object.entries(size.query.setupMs).map(([k, v]) => [k, Math.round(v)]))))}</p>`,
        );
      }
      return parts.join("\n");
    })
    .join("\n");
  const incremental = incrementalLines(report);
  const filter = filterLines(report);
  const sync = syncLines(report);
  const parse = parseLines(report);
  const reloads = reloadLines(report);
  const failures = report.failures
    .map((f) => `<li class="bad">${escapeHtml(`${f.step} at ${f.size}: ${f.message}`)}</li>`)
    .join("");
  const m = report.machine;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>lookup-knowledge bench ${escapeHtml(report.startedAt)}</title><style>${STYLE}</style></head>
<body>
<h1>lookup-knowledge bench (${escapeHtml(report.mode)})</h1>
<p>${escapeHtml(`${report.startedAt}, ${(report.durationMs / 1000).toFixed(0)} s; ${m.cpuModel} x${m.cpuCount}, ${(m.totalMemoryBytes / 2 ** 30).toFixed(1)} GiB, ${m.os}, Node ${m.node}; load average ${m.loadavgStart.map((v) => v.toFixed(2)).join(" ")} at the start, ${m.loadavgEnd.map((v) => v.toFixed(2)).join(" ")} at the end.`)}</p>
<p>Systems run side by side in one process per size, on the same SciFact test claims, in rotating round-robin order. Calls marked * were limited by the time budget (${report.measure.budgetMs / 1000} s per system).</p>
${failures ? `<h2>Failures</h2><ul>${failures}</ul>` : ""}
<h2>Goals</h2>
${htmlTable(goalTable(report.goals))}
<h2>Latency per system (log axis)</h2>
${latencyChart(report)}
<h2>Ratio to the empty-LangGraph floor (log axis)</h2>
${ratioChart(report)}
<h2>Build phases and save (share of each size's total)</h2>
${buildChart(report)}
<h2>Figures per size</h2>
${sizes}
${incremental.length > 0 ? `<h2>Incremental re-index</h2><pre>${escapeHtml(incremental.join("\n"))}</pre>` : ""}
${filter.length > 0 ? `<h2>Filtered lookups</h2><pre>${escapeHtml(filter.join("\n"))}</pre>` : ""}
${sync.length > 0 ? `<h2>Document sync</h2><pre>${escapeHtml(sync.join("\n"))}</pre>` : ""}
${parse.length > 0 ? `<h2>Corpus parse</h2><pre>${escapeHtml(parse.join("\n"))}</pre>` : ""}
${reloads.length > 0 ? `<h2>Reloads</h2><pre>${escapeHtml(reloads.join("\n"))}</pre>` : ""}
<h2>Run</h2>
<pre>${escapeHtml(JSON.stringify({ command: report.command, packages: report.packages, dataset: report.dataset, measure: report.measure, notes: report.notes }, null, 2))}</pre>
</body></html>
`;
}
