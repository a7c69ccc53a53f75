import type { GoalCheck } from "./goals.js";
import type { BenchReport, SizeReport } from "./report-model.js";
import type { FilterResult } from "../tasks/filter-task.js";
import { percentLabel } from "../tasks/filter-labels.js";
import { formatMs, formatRatio, formatTable, formatValue } from "./text-table.js";

/** A table as header and rows of text, for stdout and the HTML page alike. */
export interface TextTable {
  header: string[];
  rows: string[][];
}

/** Latency of every system at one size, with the ratios to the floor's p50. */
export function latencyTable(size: SizeReport): TextTable {
  const header = ["system", "calls", "p50 ms", "p95 ms", "p99 ms", "mean ms", "p50/floor", "p99/floor"];
  const rows = (size.query?.systems ?? []).map((system) => {
    const r = size.ratios?.toFloor.find((entry) => entry.id === system.id);
    const calls = `${system.latency.n}${system.cappedByBudget ? "*" : ""}`;
    return [
      system.label,
      calls,
      formatMs(system.latency.p50),
      formatMs(system.latency.p95),
      formatMs(system.latency.p99),
      formatMs(system.latency.mean),
      formatRatio(r?.p50ToFloor),
      formatRatio(r?.p99ToFloor),
    ];
  });
  return { header, rows };
}

/** Per-stage p50/p95: from the tool's artifact timings when present, and each stage timed alone. */
export function stageTable(size: SizeReport): TextTable {
  const rows: string[][] = [];
  for (const [stage, summary] of Object.entries(size.query?.toolStages ?? {}))
    rows.push([`tool artifact: ${stage}`, formatMs(summary.p50), formatMs(summary.p95), String(summary.n)]);
  for (const id of ["l0", "embed_query", "l1", "trace_append"]) {
    const system = size.query?.systems.find((s) => s.id === id);
    if (system)
      rows.push([
        `alone: ${system.label}`,
        formatMs(system.latency.p50),
        formatMs(system.latency.p95),
        String(system.latency.n),
      ]);
  }
  return { header: ["stage", "p50 ms", "p95 ms", "n"], rows };
}

/** One line of build, save, load, size and memory figures. */
export function buildLine(size: SizeReport): string {
  const parts: string[] = [];
  if (size.build) {
    const phases = size.build.phases.map((p) => `${p.phase} ${(p.durationMs / 1000).toFixed(1)}`).join(", ");
    parts.push(
      `build ${(size.build.buildMs / 1000).toFixed(1)} s (${phases}), save ${(size.build.saveMs / 1000).toFixed(1)} s`,
    );
    parts.push(`index ${(size.build.indexBytes / 1e6).toFixed(1)} MB`);
    parts.push(`peak RSS build ${(size.build.maxRssKiB / 1024 / 1024).toFixed(2)} GB`);
  }
  if (size.load)
    parts.push(
      `load ${(size.load.loadMs / 1000).toFixed(2)} s, peak RSS load+serve ${(size.load.maxRssKiB / 1024 / 1024).toFixed(2)} GB`,
    );
  if (size.query)
    parts.push(`peak RSS of the query child (all systems) ${(size.query.maxRssKiB / 1024 / 1024).toFixed(2)} GB`);
  return parts.join(" | ");
}

/** The ratio sentence of one size. */
export function ratioLine(size: SizeReport): string {
  const r = size.ratios;
  if (!r) return "";
  return [
    `floor p50 ${formatMs(r.floorP50)} ms`,
    `tool/raw engines ${formatRatio(r.toolToRawEngines)}`,
    `tool/(floor + raw engines) ${formatRatio(r.toolToFloorPlusEngines)}`,
    `tool/EnsembleRetriever ${formatRatio(r.toolToEnsemble)} (EnsembleRetriever ${formatRatio(r.ensembleToTool)} the tool's p50)`,
  ].join("; ");
}

/** Every goal check, worst news first within each goal. */
export function goalTable(goals: readonly GoalCheck[]): TextTable {
  const status = (check: GoalCheck) => (check.met === null ? "not measured" : check.met ? "met" : "NOT MET");
  const rows = goals.map((check) => [
    check.label,
    check.size.toLocaleString("en-US") +
      (check.size === check.goalSize ? "" : " (goal at " + check.goalSize.toLocaleString("en-US") + ")"),
    formatValue(check.value, check.unit),
    formatValue(check.limit, check.unit),
    status(check),
  ]);
  return { header: ["goal", "chunks", "measured", "limit", "status"], rows };
}

/** The incremental run in a few lines. */
export function incrementalLines(report: Pick<BenchReport, "incremental" | "failures">): string[] {
  const inc = report.incremental;
  const failure = report.failures.find((f) => f.step === "incremental");
  if (!inc && !failure) return [];
  const lines: string[] = [];
  const s = (ms: number | undefined) => (ms === undefined ? "n/a" : `${(ms / 1000).toFixed(2)} s`);
  if (inc?.size === undefined) lines.push("incremental re-index:");
  else
    lines.push(
      `incremental re-index at ${inc.size.toLocaleString("en-US")} chunks (${inc.files} files of ${inc.sectionsPerFile} sections):`,
    );
  if (inc?.initialBuild)
    lines.push(
      `  full build + save: ${s(inc.initialBuild.totalMs)} (build ${s(inc.initialBuild.buildMs)}, save ${s(inc.initialBuild.saveMs)})`,
    );
  if (inc?.inMemory)
    lines.push(
      `  update + save (in memory): ${s(inc.inMemory.totalMs)} (update ${s(inc.inMemory.updateMs)}, save ${s(inc.inMemory.saveMs)})`,
    );
  if (inc?.cliPath)
    lines.push(`  load + update + save (CLI path): ${s(inc.cliPath.totalMs)} (load ${s(inc.cliPath.loadMs)})`);
  if (inc?.fullRebuild) {
    lines.push(`  full rebuild + save of the edited folder: ${s(inc.fullRebuild.totalMs)}`);
    if (inc.inMemory)
      lines.push(
        `  update + save is ${formatRatio(inc.fullRebuild.totalMs / inc.inMemory.totalMs)} faster than the full rebuild`,
      );
  }
  if (failure) lines.push(`  FAILED: ${failure.message}`);
  return lines;
}

/** The filtered-lookup rows: tool latency per filter against the unfiltered tool, L1 recall@10 against exact search. */
export function filterTable(filter: Partial<FilterResult>): TextTable {
  const header = [
    "selectivity",
    "filter",
    "admitted",
    "L1 plan",
    "calls",
    "p50 ms",
    "p99 ms",
    "p50/unfiltered",
    "L1 p50 ms",
    "L1 recall@10",
  ];
  const rows = (filter.rows ?? []).map((row) => [
    row.kind === "none" ? "100%" : percentLabel(row.selectivity),
    row.kind === "none" ? "none (unfiltered tool)" : `${row.kind} ${row.value}`,
    row.admitted.toLocaleString("en-US"),
    row.plan,
    `${row.tool.latency.n}${row.tool.cappedByBudget ? "*" : ""}`,
    formatMs(row.tool.latency.p50),
    formatMs(row.tool.latency.p99),
    formatRatio(row.p50ToUnfiltered),
    formatMs(row.l1.p50),
    row.recallAt10.toFixed(3),
  ]);
  return { header, rows };
}

/** Both L1 plans per admitted-set size: which one wins, and the one `VectorIndex.search` picks. */
export function planTable(filter: Partial<FilterResult>): TextTable {
  const header = [
    "admitted",
    "exact p50 ms",
    "exact p99 ms",
    "hnsw p50 ms",
    "hnsw p99 ms",
    "hnsw/exact p50",
    "hnsw recall@10",
    "faster",
    "picked (<= cut-over: exact)",
  ];
  const rows = (filter.planRows ?? []).map((row) => [
    row.admitted.toLocaleString("en-US"),
    formatMs(row.exact.p50),
    formatMs(row.exact.p99),
    formatMs(row.hnsw.p50),
    formatMs(row.hnsw.p99),
    formatRatio(row.hnswToExactP50),
    row.hnswRecallAt10.toFixed(3),
    row.faster,
    row.chosen + (row.chosen === row.faster ? "" : " (slower)"),
  ]);
  return { header, rows };
}

/** The filtered-lookup section in a few lines and two tables. */
export function filterLines(report: Pick<BenchReport, "filter" | "failures">): string[] {
  const filter = report.filter;
  const failure = report.failures.find((f) => f.step === "filter");
  if (!filter && !failure) return [];
  const lines: string[] = [];
  if (filter?.size !== undefined) {
    const build = filter.buildMs === undefined ? "" : `; built once in ${(filter.buildMs / 1000).toFixed(1)} s`;
    lines.push(
      `filtered lookups at ${filter.size.toLocaleString("en-US")} chunks (${filter.queryCount ?? "?"} queries; groups g<s> on a share s of the chunks, disjoint domains d<s>, the rest "rest"${build}):`,
    );
  } else lines.push("filtered lookups:");
  if (filter?.rows) {
    const t = filterTable(filter);
    lines.push(formatTable(t.header, t.rows));
    lines.push(
      "(access g100 admits every chunk, so it runs unfiltered; the 100% domain row is the unfiltered tool. L1 recall@10: kb.l1.search k 10 minScore -1 against the exact top 10 among the admitted chunks by brute-force cosine over the graph's stored vectors.)",
    );
  }
  if (filter?.planRows && filter.planRows.length > 0) {
    const t = planTable(filter);
    lines.push(
      `L1 plans on random admitted sets at ${filter.size?.toLocaleString("en-US")} chunks (exactNearest over the cached vectors vs hnswlib searchKnn with the filter callback, ef ${filter.efSearch}, k 10; cut-over EXACT_SCAN_MAX_CHUNKS ${filter.exactScanMaxChunks?.toLocaleString("en-US")}):`,
    );
    lines.push(formatTable(t.header, t.rows));
    const from = filter.graphWinsFrom;
    const upTo = filter.scanWinsUpTo;
    lines.push(
      `  the scan wins up to ${upTo === null || upTo === undefined ? "no measured size" : upTo.toLocaleString("en-US")} admitted; the graph wins from ${from === null || from === undefined ? "no measured size" : from.toLocaleString("en-US")} on.`,
    );
  }
  if (failure) lines.push(`  FAILED: ${failure.message}`);
  return lines;
}
