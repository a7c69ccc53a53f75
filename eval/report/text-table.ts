import type { EvalReport } from "./report-model.js";

/** The metrics of every variant as an aligned plain-text table. */
export function formatMetricsTable(report: Pick<EvalReport, "metrics" | "variants">): string {
  const extraKeys = [...new Set(report.variants.flatMap((variant) => Object.keys(variant.extra ?? {})))];
  const header = ["variant", ...report.metrics, ...extraKeys];
  const rows = report.variants.map((variant) => [
    variant.label,
    ...report.metrics.map((metric) => (variant.mean[metric] ?? 0).toFixed(4)),
    ...extraKeys.map((key) => {
      const value = variant.extra?.[key];
      return typeof value === "number" ? value.toFixed(1) : (value ?? "");
    }),
  ]);
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ");
  return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n");
}
