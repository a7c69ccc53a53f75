/** Clears the reliability figures before a run and prints them after it. */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { FIGURES_FILE, type ReliabilityFigures } from "./helpers/figures.js";

const COLUMNS = [
  ["inputsTried", "inputs tried"],
  ["faultsInjected", "faults injected"],
  ["linesLost", "lines lost"],
  ["indexesLost", "indexes lost"],
  ["requestsUnanswered", "requests unanswered"],
  ["crashes", "crashes/hangs"],
] as const;

/** Renders the recorded figures as a Markdown table, with a total row. */
export function figuresTable(rows: readonly ReliabilityFigures[]): string {
  const cell = (value: number | undefined) => (value === undefined ? "—" : String(value));
  const lines = [
    `| scenario | ${COLUMNS.map(([, label]) => label).join(" | ")} |`,
    `| --- | ${COLUMNS.map(() => "---").join(" | ")} |`,
  ];
  for (const row of rows) {
    const name = row.skippedBecause ? `${row.scenario} (skipped: ${row.skippedBecause})` : row.scenario;
    lines.push(`| ${name} | ${COLUMNS.map(([key]) => cell(row[key])).join(" | ")} |`);
  }
  const total = (key: (typeof COLUMNS)[number][0]) => rows.reduce((sum, row) => sum + (row[key] ?? 0), 0);
  lines.push(`| **total** | ${COLUMNS.map(([key]) => `**${total(key)}**`).join(" | ")} |`);
  return lines.join("\n");
}

export function setup(): void {
  rmSync(FIGURES_FILE, { force: true });
}

export function teardown(): void {
  if (!existsSync(FIGURES_FILE)) return;
  const rows = readFileSync(FIGURES_FILE, "utf8")
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as ReliabilityFigures)
    .sort((a, b) => a.scenario.localeCompare(b.scenario));
  if (rows.length === 0) return;
  process.stdout.write(`\nReliability figures (${FIGURES_FILE}):\n\n${figuresTable(rows)}\n\n`);
}
