import type { BenchReport } from "./report-model.js";
import { formatTable } from "./text-table.js";

const ms = (value: number | undefined) => (value === undefined ? "-" : value.toFixed(2));
const mib = (bytes: number | undefined) => (bytes === undefined ? "-" : (bytes / 2 ** 20).toFixed(0));

/** The reload rows: per size, how soon lookups answer from a new generation and what they cost meanwhile. */
export function reloadLines(report: Pick<BenchReport, "reloads" | "failures">): string[] {
  const reloads = report.reloads ?? [];
  const failed = report.failures.filter((f) => f.step === "reload");
  if (reloads.length === 0 && failed.length === 0) return [];
  const header = [
    "chunks",
    "save s",
    "commit → first answer ms",
    "p50 before",
    "p99 before",
    "p50 during",
    "p99 during",
    "p99 after",
    "failed",
    "old answers after commit",
    "RSS MiB before / peak / after",
    "old generation freed",
  ];
  const rows = reloads.map((r) => [
    r.size?.toLocaleString("en-US") ?? "?",
    r.saveMs === undefined ? "-" : (r.saveMs / 1000).toFixed(1),
    ms(r.commitToFirstAnswerMs),
    ms(r.before?.p50),
    ms(r.before?.p99),
    ms(r.during?.p50),
    ms(r.during?.p99),
    ms(r.after?.p99),
    String(r.failures ?? "-"),
    String(r.oldAnswersAfterCommit ?? "-"),
    `${mib(r.rssBytes?.before)} / ${mib(r.rssBytes?.peakDuring)} / ${mib(r.rssBytes?.after)}`,
    r.oldGenerationCollected === undefined || r.oldGenerationCollected === null
      ? "-"
      : r.oldGenerationCollected
        ? "yes"
        : "NO",
  ]);
  const lines = [
    "reloads (a followed index serving the traced tool one lookup at a time while the same process saves a new generation into its folder; lookup ms):",
    formatTable(header, rows),
  ];
  for (const failure of failed) lines.push(`  FAILED at ${failure.size.toLocaleString("en-US")}: ${failure.message}`);
  return lines;
}
