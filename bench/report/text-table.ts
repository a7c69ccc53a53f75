/** An aligned plain-text table: first column left-aligned, the others right-aligned. Pure. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    widths
      .map((width, i) => (i === 0 ? (cells[i] ?? "").padEnd(width) : (cells[i] ?? "").padStart(width)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n");
}

/** Milliseconds with precision that suits their size; "n/a" for missing or NaN. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "n/a";
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 10) return ms.toFixed(1);
  if (ms >= 1) return ms.toFixed(2);
  return ms.toFixed(3);
}

/** A ratio such as "3.4x"; "n/a" for NaN. */
export function formatRatio(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "n/a";
  return `${value >= 10 ? value.toFixed(0) : value >= 1 ? value.toFixed(1) : value >= 0.1 ? value.toFixed(2) : Number(value.toPrecision(2))}x`;
}

/** A figure in a goal's unit. */
export function formatValue(value: number | null, unit: string): string {
  if (value === null || !Number.isFinite(value)) return "n/a";
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  const text = String(Number(value.toFixed(digits)));
  return unit === "x floor" ? `${text}x` : `${text} ${unit}`;
}
