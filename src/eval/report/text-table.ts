import type { EvalReport } from "./report-model.js";

/** A metric value to four places, or "n/a" when the variant does not measure it. */
export function formatMetric(value: number | undefined): string {
  return value !== undefined && Number.isFinite(value) ? value.toFixed(4) : "n/a";
}

/** The metrics of every variant as an aligned plain-text table. */
export function formatMetricsTable(report: Pick<EvalReport, "metrics" | "variants">): string {
  const extraKeys = [...new Set(report.variants.flatMap((variant) => Object.keys(variant.extra ?? {})))];
  const header = ["variant", ...report.metrics, ...extraKeys];
  const rows = report.variants.map((variant) => [
    variant.label,
    ...report.metrics.map((metric) => formatMetric(variant.mean[metric])),
    ...extraKeys.map((key) => {
      const value = variant.extra?.[key];
      return typeof value === "number" ? value.toFixed(1) : (value ?? "");
    }),
  ]);
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ");
  return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n");
}
