import { escapeHtml } from "./html-escape.js";
import { renderRankedLists } from "./html-ranked-lists.js";
import { renderBaselines, renderCalibration, renderLatency, renderSignificance } from "./html-sections.js";
import { compareVariants, type EvalReport, type WinsLosses } from "./report-model.js";
import { formatMetric } from "./text-table.js";

const COLORS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2"];

const STYLE = [
  "body{font-family:system-ui,sans-serif;margin:2rem;max-width:1200px;color:#222}",
  "table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}",
  "table.num td:not(:first-child),td.n{text-align:right;font-variant-numeric:tabular-nums}",
  "tr.sig td{font-weight:600}tr.ours td{background:#f3f7fc}tr.floor td{color:#555;font-style:italic}",
  "pre{background:#f6f6f6;padding:1rem;overflow:auto}.note{color:#555;font-size:.9rem}",
  "details{border-bottom:1px solid #eee;padding:.2rem 0}summary{cursor:pointer}summary .scores{color:#555;font-size:.85rem;margin-left:.5rem}",
  "table.ranked{width:100%;table-layout:fixed;font-size:.82rem}table.ranked th:first-child,table.ranked td:first-child{width:2rem}",
  "table.ranked td{word-break:break-word}table.ranked small{color:#666}td.gold{background:#e6f4ea}.mark{color:#b8860b}",
  "ul.goldlist{font-size:.88rem;margin:.3rem 0}nav a{margin-right:.8rem}",
].join("");

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

/** Links to the sections the report has. */
function renderNav(report: EvalReport): string {
  const links: [string, string, boolean][] = [
    ["metrics", "metrics", true],
    ["significance", "significance", (report.significance?.comparisons.length ?? 0) > 0],
    ["latency", "latency", report.variants.some((variant) => variant.latency !== undefined)],
    ["baselines", "published baselines", (report.baselines?.length ?? 0) > 0],
    ["calibration", "calibration", report.calibration !== undefined],
    ["wins", "wins and losses", true],
    ["ranked", "ranked lists", report.rankings !== undefined],
    ["config", "configuration", true],
  ];
  return `<nav>${links.filter(([, , shown]) => shown).map(([id, text]) => `<a href="#${id}">${text}</a>`).join("")}</nav>`;
}

/**
 * A self-contained HTML page (no script, works offline): metrics table, bar chart, and, when the
 * report has them, paired significance tests, latency, published baselines, calibration, per-query
 * wins and losses, per-query ranked lists with gold documents marked, fingerprint and configuration.
 * Every text from the data is escaped.
 */
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
<style>${STYLE}</style>
</head><body>
<h1>${escapeHtml(report.title)}</h1>
<p>Created ${escapeHtml(report.createdAt)} · corpus fingerprint <code>${escapeHtml(report.corpusFingerprint)}</code> · ${Object.keys(report.queries).length} queries</p>
${renderNav(report)}
<h2 id="metrics">Metrics per variant</h2><table class="num">${header}${rows}</table>
${renderBarChart(report)}
${renderSignificance(report)}
${renderLatency(report)}
${renderBaselines(report)}
${renderCalibration(report)}
<h2 id="wins">Per-query wins and losses</h2>${comparisons || "<p>Only one variant: nothing to compare.</p>"}
${renderRankedLists(report)}
<h2 id="config">Configuration</h2><pre>${escapeHtml(JSON.stringify(report.config, null, 2))}</pre>
</body></html>
`;
}
