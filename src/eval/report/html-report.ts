import { compareVariants, type EvalReport, type WinsLosses } from "./report-model.js";
import { formatMetric } from "./text-table.js";

const COLORS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2"];

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A grouped bar chart (one group per metric, one bar per variant) as inline SVG: no script, works offline. */
export function renderBarChart(report: EvalReport): string {
  const barWidth = 26;
  const gap = 28;
  const height = 220;
  // Wide enough for the longest metric name under its group.
  const longestName = Math.max(0, ...report.metrics.map((metric) => metric.length));
  const groupWidth = Math.max(report.variants.length * barWidth + gap, longestName * 7 + 16);
  const width = 60 + report.metrics.length * groupWidth;
  const bars: string[] = [];
  report.metrics.forEach((metric, m) => {
    const x0 = 50 + m * groupWidth;
    report.variants.forEach((variant, v) => {
      const mean = variant.mean[metric];
      // A metric the variant does not measure gets no bar rather than a misleading zero.
      if (!Number.isFinite(mean)) return;
      const value = Math.max(0, Math.min(1, mean));
      const h = value * height;
      const x = x0 + v * barWidth;
      bars.push(
        `<rect x="${x}" y="${20 + height - h}" width="${barWidth - 4}" height="${h}" fill="${COLORS[v % COLORS.length]}"><title>${escapeHtml(`${variant.label} ${metric}: ${value.toFixed(4)}`)}</title></rect>`,
        `<text x="${x + (barWidth - 4) / 2}" y="${14 + height - h}" font-size="9" text-anchor="middle">${value.toFixed(2)}</text>`,
      );
    });
    bars.push(`<text x="${x0 + (report.variants.length * barWidth) / 2}" y="${height + 38}" font-size="12" text-anchor="middle">${escapeHtml(metric)}</text>`);
  });
  const axis = [0, 0.25, 0.5, 0.75, 1]
    .map((t) => `<line x1="45" x2="${width}" y1="${20 + height - t * height}" y2="${20 + height - t * height}" stroke="#ddd"/><text x="40" y="${24 + height - t * height}" font-size="10" text-anchor="end">${t.toFixed(2)}</text>`)
    .join("");
  const legend = report.variants
    .map((variant, v) => `<rect x="${50 + v * 120}" y="${height + 50}" width="12" height="12" fill="${COLORS[v % COLORS.length]}"/><text x="${66 + v * 120}" y="${height + 60}" font-size="12">${escapeHtml(variant.label)}</text>`)
    .join("");
  return `<svg role="img" aria-label="metrics per variant" width="${width}" height="${height + 70}" xmlns="http://www.w3.org/2000/svg">${axis}${bars.join("")}${legend}</svg>`;
}

function renderComparison(report: EvalReport, comparison: WinsLosses, shown = 10): string {
  const label = (name: string) => report.variants.find((variant) => variant.name === name)?.label ?? name;
  const rows = (deltas: WinsLosses["wins"]) =>
    deltas
      .slice(0, shown)
      .map((d) => `<tr><td>${escapeHtml(d.queryId)}</td><td>${escapeHtml(report.queries[d.queryId] ?? "")}</td><td>${d.a.toFixed(3)}</td><td>${d.b.toFixed(3)}</td><td>${d.delta > 0 ? "+" : ""}${d.delta.toFixed(3)}</td></tr>`)
      .join("");
  const head = `<tr><th>query</th><th>text</th><th>${escapeHtml(label(comparison.a))}</th><th>${escapeHtml(label(comparison.b))}</th><th>Δ</th></tr>`;
  return `<h3>${escapeHtml(label(comparison.a))} vs ${escapeHtml(label(comparison.b))} (${escapeHtml(report.primaryMetric)})</h3>
<p>${comparison.wins.length} wins, ${comparison.losses.length} losses, ${comparison.ties} ties.</p>
<details><summary>Largest wins</summary><table>${head}${rows(comparison.wins)}</table></details>
<details><summary>Largest losses</summary><table>${head}${rows(comparison.losses)}</table></details>`;
}

/** A self-contained HTML page: metrics table, bar chart, per-query wins and losses, fingerprint and configuration. */
export function renderHtmlReport(report: EvalReport): string {
  const header = `<tr><th>variant</th>${report.metrics.map((metric) => `<th>${escapeHtml(metric)}</th>`).join("")}</tr>`;
  const rows = report.variants
    .map((variant) => `<tr><td>${escapeHtml(variant.label)}</td>${report.metrics.map((metric) => `<td>${formatMetric(variant.mean[metric])}</td>`).join("")}</tr>`)
    .join("");
  const reference = report.variants.find((variant) => variant.name === "L0+L1") ?? report.variants[0];
  const comparisons = report.variants
    .filter((variant) => variant !== reference)
    .map((variant) => renderComparison(report, compareVariants(reference, variant, report.primaryMetric)))
    .join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(report.title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:1100px}table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}pre{background:#f6f6f6;padding:1rem;overflow:auto}</style>
</head><body>
<h1>${escapeHtml(report.title)}</h1>
<p>Created ${escapeHtml(report.createdAt)} · corpus fingerprint <code>${escapeHtml(report.corpusFingerprint)}</code> · ${Object.keys(report.queries).length} queries</p>
<h2>Metrics per variant</h2><table>${header}${rows}</table>
${renderBarChart(report)}
<h2>Per-query wins and losses</h2>${comparisons || "<p>Only one variant: nothing to compare.</p>"}
<h2>Configuration</h2><pre>${escapeHtml(JSON.stringify(report.config, null, 2))}</pre>
</body></html>
`;
}
