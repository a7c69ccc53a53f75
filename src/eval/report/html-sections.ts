import { escapeHtml, formatMs, formatP } from "./html-escape.js";
import type { EvalReport } from "./report-model.js";
import { formatMetric } from "./text-table.js";

const label = (report: EvalReport, name: string) => report.variants.find((variant) => variant.name === name)?.label ?? name;

/** Per-query latency of every variant, stage medians, and the graph's own floor. */
export function renderLatency(report: EvalReport): string {
  const measured = report.variants.filter((variant) => variant.latency !== undefined);
  if (measured.length === 0) return "";
  const stages = [...new Set(measured.flatMap((variant) => Object.keys(variant.latency?.stagesP50Ms ?? {})))];
  const floor = report.latencyFloor;
  const head = `<tr><th>variant</th><th>queries</th><th>mean ms</th><th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>max ms</th>${stages.map((s) => `<th>${escapeHtml(s)} p50 ms</th>`).join("")}${floor ? "<th>p50 ÷ floor p50</th>" : ""}</tr>`;
  const rows = measured.map((variant) => {
    const l = variant.latency!;
    const ratio = floor && floor.p50Ms > 0 ? `<td>${(l.p50Ms / floor.p50Ms).toFixed(1)}×</td>` : floor ? "<td>n/a</td>" : "";
    return `<tr><td>${escapeHtml(variant.label)}</td><td>${l.queries}</td><td>${formatMs(l.meanMs)}</td><td>${formatMs(l.p50Ms)}</td><td>${formatMs(l.p95Ms)}</td><td>${formatMs(l.p99Ms)}</td><td>${formatMs(l.maxMs)}</td>${stages.map((s) => `<td>${formatMs(l.stagesP50Ms?.[s])}</td>`).join("")}${ratio}</tr>`;
  });
  const floorRow = floor
    ? `<tr class="floor"><td>graph floor</td><td>${floor.queries}</td><td>${formatMs(floor.meanMs)}</td><td>${formatMs(floor.p50Ms)}</td><td>${formatMs(floor.p95Ms)}</td><td>${formatMs(floor.p99Ms)}</td><td>${formatMs(floor.maxMs)}</td>${stages.map(() => "<td></td>").join("")}<td>1.0×</td></tr>`
    : "";
  const note = floor ? `<p class="note">Graph floor: ${escapeHtml(floor.description)}.</p>` : "";
  return `<h2 id="latency">Latency per lookup</h2><p class="note">Wall-clock time of each query's graph run (one process, no trace), nearest-rank percentiles.</p><table class="num">${head}${rows.join("")}${floorRow}</table>${note}`;
}

/** The paired tests between variants, one row per pair. */
export function renderSignificance(report: EvalReport): string {
  const s = report.significance;
  if (!s || s.comparisons.length === 0) return "";
  const rows = s.comparisons
    .map((c) => {
      const strong = c.randomizationP < 0.05 ? ' class="sig"' : "";
      return `<tr${strong}><td>${escapeHtml(label(report, c.a))} vs ${escapeHtml(label(report, c.b))}</td><td>${c.n}</td><td>${formatMetric(c.meanA)}</td><td>${formatMetric(c.meanB)}</td><td>${c.meanDifference >= 0 ? "+" : ""}${c.meanDifference.toFixed(4)}</td><td>${formatP(c.randomizationP)}</td><td>${formatP(c.tTestP)}</td></tr>`;
    })
    .join("");
  const bonferroni = (0.05 / s.comparisons.length).toFixed(4);
  return `<h2 id="significance">Paired significance tests (${escapeHtml(s.metric)})</h2>
<table class="num"><tr><th>pair (A vs B)</th><th>queries</th><th>mean A</th><th>mean B</th><th>Δ mean (A − B)</th><th>randomisation p</th><th>t-test p</th></tr>${rows}</table>
<p class="note">Per-query ${escapeHtml(s.metric)}, paired by query. Two-sided sign-flip randomisation test (${s.permutations.toLocaleString("en")} random assignments, seed ${s.seed}; exact when 2<sup>n</sup> is smaller) and two-sided paired t-test. Rows in bold: randomisation p &lt; 0.05. ${s.comparisons.length} comparisons, not corrected for multiplicity (Bonferroni threshold ${bonferroni}).</p>`;
}

/** Published figures beside this run's, when the dataset is a known one. */
export function renderBaselines(report: EvalReport): string {
  const baselines = report.baselines ?? [];
  if (baselines.length === 0) return "";
  const metrics = report.metrics.filter((metric) => baselines.some((b) => b.metrics[metric] !== undefined));
  const cell = (value: number | undefined) => `<td class="n">${value === undefined ? "—" : value.toFixed(3)}</td>`;
  const ours = report.variants.map((v) => `<tr class="ours"><td>${escapeHtml(v.label)}</td><td>this run</td>${metrics.map((m) => cell(v.mean[m])).join("")}</tr>`).join("");
  const published = baselines.map((b) => `<tr><td>${escapeHtml(b.system)}</td><td>${escapeHtml(b.source)}</td>${metrics.map((m) => cell(b.metrics[m])).join("")}</tr>`).join("");
  return `<h2 id="baselines">Published baselines</h2><table><tr><th>system</th><th>source</th>${metrics.map((m) => `<th>${escapeHtml(m)}</th>`).join("")}</tr>${ours}${published}</table><p class="note">Published figures on the same dataset and split; "—": not published there (or not checked).</p>`;
}

/** The calibration values in effect during the run. */
export function renderCalibration(report: EvalReport): string {
  const c = report.calibration;
  if (!c) return "";
  const rows = Object.entries(c.values)
    .map(([key, value]) => `<tr><td>${escapeHtml(key)}</td><td>${escapeHtml(typeof value === "number" ? String(Number(value.toFixed(4))) : value)}</td></tr>`)
    .join("");
  return `<h2 id="calibration">Calibration in effect</h2><p>${escapeHtml(c.summary)}</p><table>${rows}</table>`;
}
