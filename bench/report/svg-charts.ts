/** Inline SVG charts for the HTML report, drawn here (no library, no network). Pure. */

/** `&`, `<`, `>`, `"` and `'` as entities, for text and attributes. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );
}

/** Colours of the series, in order. */
export const PALETTE = [
  "#3b6fb6",
  "#a6c4ea",
  "#d9822b",
  "#5a9e4b",
  "#b5477b",
  "#7b6cc2",
  "#4aa3a3",
  "#c2a83e",
  "#8a8a8a",
  "#d35d5d",
];

/** One row of bars: a label and one value per series (missing or non-positive values are not drawn). */
export interface BarRow {
  label: string;
  values: (number | null)[];
}

/** A titled block of rows (one size, say). */
export interface BarGroup {
  title: string;
  rows: BarRow[];
}

/** Options of {@link groupedBarChart}. */
export interface GroupedBarChartOptions {
  groups: BarGroup[];
  /** Series names, one colour each, drawn as bars under one another in each row. */
  series: string[];
  scale: "log" | "linear";
  /** Unit written after tick and value labels ("ms", "x"). */
  unit: string;
  /** Vertical reference lines (a goal, the floor). */
  markers?: { value: number; label: string }[];
  width?: number;
}

/** Roughly the width of one 11px label character, to size the label column. */
const CHAR_WIDTH = 6.2;
const BAR_HEIGHT = 9;
const ROW_GAP = 7;

function formatTick(value: number, unit: string): string {
  const text = value >= 1 ? String(Number(value.toPrecision(3))) : String(Number(value.toPrecision(2)));
  return `${text}${unit === "x" ? "x" : ` ${unit}`}`;
}

/** The axis: a value-to-x mapping and its ticks. */
function axis(
  values: number[],
  scale: "log" | "linear",
  plotWidth: number,
): { x(value: number): number; ticks: number[] } {
  const positive = values.filter((v) => Number.isFinite(v) && v > 0);
  if (scale === "log") {
    const lo = Math.floor(Math.log10(Math.min(...positive, 1)));
    const hi = Math.max(lo + 1, Math.ceil(Math.log10(Math.max(...positive, 1))));
    const ticks = Array.from({ length: hi - lo + 1 }, (_, i) => 10 ** (lo + i));
    return { x: (v) => ((Math.log10(v) - lo) / (hi - lo)) * plotWidth, ticks };
  }
  const max = Math.max(...positive, 1e-9);
  const step = 10 ** Math.floor(Math.log10(max));
  const top = Math.ceil(max / step) * step;
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  return { x: (v) => (v / top) * plotWidth, ticks };
}

/**
 * Horizontal bars, rows grouped under titles, one bar per series in each row, on a shared log or
 * linear axis, with optional reference lines. Each bar has a tooltip with its exact value.
 */
export function groupedBarChart(options: GroupedBarChartOptions): string {
  const width = options.width ?? 960;
  const longest = Math.max(0, ...options.groups.flatMap((group) => group.rows.map((row) => row.label.length)));
  const labelWidth = Math.min(420, Math.max(140, Math.ceil(longest * CHAR_WIDTH) + 12));
  const plotWidth = width - labelWidth - 90;
  const top = options.markers && options.markers.length > 0 ? 44 : 24;
  const seriesCount = options.series.length;
  const rowHeight = seriesCount * BAR_HEIGHT + ROW_GAP;
  const all = options.groups.flatMap((group) =>
    group.rows.flatMap((row) => row.values.filter((v): v is number => v !== null)),
  );
  const { x, ticks } = axis([...all, ...(options.markers ?? []).map((m) => m.value)], options.scale, plotWidth);
  const parts: string[] = [];
  let y = top + 6;
  for (const group of options.groups) {
    parts.push(`<text x="4" y="${y + 12}" class="group">${escapeHtml(group.title)}</text>`);
    y += 20;
    for (const row of group.rows) {
      parts.push(
        `<text x="${labelWidth - 6}" y="${y + (seriesCount * BAR_HEIGHT) / 2 + 4}" text-anchor="end">${escapeHtml(row.label)}</text>`,
      );
      row.values.forEach((value, s) => {
        if (value === null || !Number.isFinite(value) || value <= 0) return;
        const w = Math.max(1, x(value));
        const barTop = y + s * BAR_HEIGHT;
        parts.push(
          `<rect x="${labelWidth}" y="${barTop}" width="${w.toFixed(1)}" height="${BAR_HEIGHT - 1}" fill="${PALETTE[s % PALETTE.length]}"><title>${escapeHtml(`${row.label} ${options.series[s]}: ${formatTick(value, options.unit)}`)}</title></rect>`,
          `<text x="${(labelWidth + w + 4).toFixed(1)}" y="${barTop + BAR_HEIGHT - 1}" class="value">${escapeHtml(formatTick(value, options.unit))}</text>`,
        );
      });
      y += rowHeight;
    }
    y += 8;
  }
  const height = y + 24;
  const grid = ticks.map((tick) => {
    const tx = (labelWidth + x(tick)).toFixed(1);
    return `<line x1="${tx}" x2="${tx}" y1="${top}" y2="${y}" class="grid"/><text x="${tx}" y="${y + 14}" text-anchor="middle" class="tick">${escapeHtml(formatTick(tick, options.unit))}</text>`;
  });
  // Labels of close markers alternate between two lines so they never overlap.
  const markers = (options.markers ?? []).map((marker, i) => {
    const mx = (labelWidth + x(marker.value)).toFixed(1);
    return `<line x1="${mx}" x2="${mx}" y1="${top}" y2="${y}" class="marker"/><text x="${mx}" y="${i % 2 === 0 ? 28 : 40}" text-anchor="middle" class="marker-label">${escapeHtml(marker.label)}</text>`;
  });
  const legend = options.series.map(
    (name, s) =>
      `<rect x="${labelWidth + s * 140}" y="2" width="10" height="10" fill="${PALETTE[s % PALETTE.length]}"/><text x="${labelWidth + s * 140 + 14}" y="11">${escapeHtml(name)}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">${[...grid, ...markers, ...legend, ...parts].join("")}</svg>`;
}

/** One row of a 100%-stacked bar: its segments and the label of its total. */
export interface StackedRow {
  label: string;
  totalLabel: string;
  segments: { name: string; value: number }[];
}

/**
 * 100%-stacked horizontal bars, one per row, each scaled to its own total (so rows of very
 * different totals stay readable; the total is written beside it). Segment colours follow
 * `names`, so a phase has the same colour in every row.
 */
export function stackedShareChart(rows: StackedRow[], names: string[], width = 900): string {
  const plotWidth = width - 160 - 120;
  const parts: string[] = [];
  let y = 26;
  for (const row of rows) {
    const total = row.segments.reduce((sum, s) => sum + Math.max(0, s.value), 0);
    let x = 160;
    parts.push(`<text x="154" y="${y + 13}" text-anchor="end">${escapeHtml(row.label)}</text>`);
    for (const segment of row.segments) {
      if (!(segment.value > 0) || total <= 0) continue;
      const w = (segment.value / total) * plotWidth;
      const colour = PALETTE[Math.max(0, names.indexOf(segment.name)) % PALETTE.length];
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="18" fill="${colour}"><title>${escapeHtml(`${row.label} ${segment.name}: ${(segment.value / 1000).toFixed(2)} s`)}</title></rect>`,
      );
      if (w > 34)
        parts.push(
          `<text x="${(x + w / 2).toFixed(1)}" y="${y + 13}" text-anchor="middle" class="in-bar">${escapeHtml(`${(segment.value / 1000).toFixed(1)}s`)}</text>`,
        );
      x += w;
    }
    parts.push(`<text x="${160 + plotWidth + 6}" y="${y + 13}">${escapeHtml(row.totalLabel)}</text>`);
    y += 28;
  }
  const legend = names.map(
    (name, i) =>
      `<rect x="${160 + i * 95}" y="4" width="10" height="10" fill="${PALETTE[i % PALETTE.length]}"/><text x="${160 + i * 95 + 14}" y="13">${escapeHtml(name)}</text>`,
  );
  const height = y + 8;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">${[...legend, ...parts].join("")}</svg>`;
}
