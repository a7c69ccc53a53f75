import type { BenchReport } from "./report-model.js";
import { parseLines } from "./parse-lines.js";
import { reloadLines } from "./reload-lines.js";
import { serveLines } from "./serve-lines.js";
import { syncLines } from "./sync-lines.js";
import {
  buildLine,
  filterLines,
  goalTable,
  incrementalLines,
  latencyTable,
  ratioLine,
  stageTable,
} from "./summary-rows.js";
import { formatTable } from "./text-table.js";

/** The compact stdout summary of a run. */
export function formatReport(report: BenchReport): string {
  const out: string[] = [];
  out.push(
    `lookup-knowledge bench (${report.mode}) on ${report.machine.cpuModel} x${report.machine.cpuCount}, Node ${report.machine.node}, load average ${report.machine.loadavgStart.map((v) => v.toFixed(2)).join(" ")} -> ${report.machine.loadavgEnd.map((v) => v.toFixed(2)).join(" ")}`,
  );
  for (const size of report.sizes) {
    out.push("", `== ${size.size.toLocaleString("en-US")} chunks ==`, buildLine(size));
    if (size.query) {
      out.push(formatTable(latencyTable(size).header, latencyTable(size).rows));
      out.push(ratioLine(size));
      const capped = size.query.systems.filter((s) => s.cappedByBudget);
      if (capped.length > 0)
        out.push(
          `* fewer calls: ${capped.map((s) => `${s.id} ${s.latency.n} calls on ${s.distinctQueries} queries`).join(", ")} (time budget ${report.measure.budgetMs / 1000} s per system at its warm-up cost)`,
        );
      const stages = stageTable(size);
      out.push(formatTable(stages.header, stages.rows));
      if (size.query.toolStages === null)
        out.push("(the tool's artifact has no `timings` yet: stage figures are the stages timed alone)");
    }
  }
  const incremental = incrementalLines(report);
  if (incremental.length > 0) out.push("", ...incremental);
  const filter = filterLines(report);
  if (filter.length > 0) out.push("", ...filter);
  const sync = syncLines(report);
  if (sync.length > 0) out.push("", ...sync);
  const reloads = reloadLines(report);
  if (reloads.length > 0) out.push("", ...reloads);
  const parse = parseLines(report);
  if (parse.length > 0) out.push("", ...parse);
  const serve = serveLines(report);
  if (serve.length > 0) out.push("", ...serve);
  const goals = goalTable(report.goals);
  out.push("", "goals (from the issue; checked from the measured values):", formatTable(goals.header, goals.rows));
  for (const note of report.notes) out.push(`note: ${note}`);
  for (const failure of report.failures)
    out.push(`FAILED ${failure.step} at ${failure.size.toLocaleString("en-US")}: ${failure.message}`);
  return out.join("\n");
}
