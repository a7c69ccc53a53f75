import type { MachineInfo } from "../report/report-model.js";
import { percentile, type LatencySummary } from "../measure/percentile.js";
import type { SizingOptions } from "./sizing-options.js";
import type {
  BuildVariantResult,
  LoadVariantResult,
  QueryVariantsResult,
  ServerMemory,
  SystemTimings,
  TimingPhase,
} from "./sizing-spec.js";

/** A step that did not finish. */
export interface SizingFailure {
  step: string;
  message: string;
  partial?: unknown;
}

/** Everything measured at one size. */
export interface SizeRun {
  size: number;
  wallMs: number;
  overBudget: boolean;
  /** SHA-256 of every file below src/ as the size started and ended: they differ when someone edited the library mid-run. */
  srcDigestStart: string;
  srcDigestEnd: string;
  uptimeStart: string;
  uptimeEnd: string;
  build: { hnsw: BuildVariantResult | null; store: BuildVariantResult | null };
  query: QueryVariantsResult | null;
  loads: { hnsw: LoadVariantResult[]; store: LoadVariantResult[] };
  /** The PGlite server process: after both builds (rows written) and at the end (index built, queries run). */
  server: { afterBuild: ServerMemory; afterAll: ServerMemory };
  failures: SizingFailure[];
}

/** The JSON file. */
export interface SizingReport {
  startedAt: string;
  finishedAt: string;
  machine: MachineInfo;
  uptimeStart: string;
  uptimeEnd: string;
  options: SizingOptions;
  sizes: SizeRun[];
  skipped: { size: number; reason: string }[];
  notes: string[];
}

const MiB = 2 ** 20;

function mib(bytes: number | null | undefined): string {
  return bytes === null || bytes === undefined || !Number.isFinite(bytes)
    ? "n/a"
    : (bytes / MiB).toFixed(bytes >= 100 * MiB ? 0 : 1);
}

function ms(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "n/a";
  return value >= 100
    ? value.toFixed(0)
    : value >= 10
      ? value.toFixed(1)
      : value >= 1
        ? value.toFixed(2)
        : value.toFixed(3);
}

function seconds(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value)
    ? "n/a"
    : (value / 1000).toFixed(value >= 100_000 ? 0 : 1);
}

function times(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value)
    ? "n/a"
    : `${value >= 10 ? value.toFixed(0) : value.toFixed(2)}x`;
}

function count(value: number): string {
  return value.toLocaleString("en-US");
}

/** A GitHub-flavoured Markdown table. Pure. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map((_, i) => (i === 0 ? "---" : "---:"))), ...rows.map(line)].join("\n");
}

/** Median and range of one figure over a variant's load processes. */
function spreadOf(values: readonly number[], format: (value: number) => string): string {
  if (values.length === 0) return "n/a";
  const median = percentile(values, 50);
  return values.length === 1
    ? format(median)
    : `${format(median)} (${format(Math.min(...values))}-${format(Math.max(...values))})`;
}

function medianOf(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : percentile(values, 50);
}

function buildTable(runs: readonly SizeRun[]): string {
  const rows = runs.map(({ size, build, query }) => {
    const { hnsw, store } = build;
    const writes = store?.storeCalls;
    const rowsPerS =
      writes && writes.addVectorsMs > 0 ? count(Math.round(writes.rowsWritten / (writes.addVectorsMs / 1000))) : "n/a";
    return [
      count(size),
      seconds(hnsw?.buildMs),
      seconds(store?.buildMs),
      hnsw && store ? `${seconds(store.buildMs - hnsw.buildMs)} (${times(store.buildMs / hnsw.buildMs)})` : "n/a",
      writes ? `${seconds(writes.addVectorsMs)} (${rowsPerS} rows/s)` : "n/a",
      writes ? seconds(writes.deleteMs) : "n/a",
      query ? seconds(query.alterColumnMs) : "n/a",
      query ? `${seconds(query.createIndexMs)} (+ scope btree ${seconds(query.scopeIndexMs)})` : "n/a",
      mib(hnsw?.vectorFileBytes),
      mib(hnsw?.indexBytes),
      query ? `${mib(query.tableBytes)} + ${mib(query.indexBytes)}` : "n/a",
    ];
  });
  return markdownTable(
    [
      "N",
      "build HNSW s",
      "build + pgvector s",
      "difference s (ratio)",
      "row writing s (addVectors)",
      "row delete s",
      "ALTER column s",
      "pgvector HNSW index s",
      "vectors.hnsw MiB",
      "index folder MiB",
      "pg table + index MiB",
    ],
    rows,
  );
}

function memoryTable(runs: readonly SizeRun[]): string {
  const rows: string[][] = [];
  for (const run of runs) {
    for (const variant of ["hnsw", "store"] as const) {
      const loads = run.loads[variant];
      if (loads.length === 0) continue;
      rows.push([
        count(run.size),
        variant === "hnsw" ? "HNSW (in process)" : "pgvector",
        String(loads.length),
        spreadOf(
          loads.map((l) => l.loadMs),
          seconds,
        ),
        spreadOf(
          loads.map((l) => l.afterLoad.rss),
          mib,
        ),
        spreadOf(
          loads.map((l) => l.afterLoad.heapUsed),
          mib,
        ),
        spreadOf(
          loads.map((l) => l.afterLoad.heapUsed - l.beforeLoad.heapUsed),
          mib,
        ),
        spreadOf(
          loads.map((l) => l.afterLoad.external),
          mib,
        ),
        spreadOf(
          loads.map((l) => l.afterServe.rss),
          mib,
        ),
        spreadOf(
          loads.map((l) => l.maxRssBytes),
          mib,
        ),
        spreadOf(
          loads.map((l) => l.beforeLoad.rss),
          mib,
        ),
        "",
      ]);
    }
    const h = run.loads.hnsw;
    const s = run.loads.store;
    if (h.length > 0 && s.length > 0) {
      const rssSaved = medianOf(h.map((l) => l.afterLoad.rss)) - medianOf(s.map((l) => l.afterLoad.rss));
      const kbSaved =
        medianOf(h.map((l) => l.afterLoad.rss - l.beforeLoad.rss)) -
        medianOf(s.map((l) => l.afterLoad.rss - l.beforeLoad.rss));
      const servedSaved = medianOf(h.map((l) => l.afterServe.rss)) - medianOf(s.map((l) => l.afterServe.rss));
      const peakSaved = medianOf(h.map((l) => l.maxRssBytes)) - medianOf(s.map((l) => l.maxRssBytes));
      const loadRatio = medianOf(s.map((l) => l.loadMs)) / medianOf(h.map((l) => l.loadMs));
      const readHash = medianOf(s.map((l) => l.vectorFileReadHashMs));
      const heapGrowth =
        medianOf(h.map((l) => l.afterLoad.heapUsed - l.beforeLoad.heapUsed)) -
        medianOf(s.map((l) => l.afterLoad.heapUsed - l.beforeLoad.heapUsed));
      rows.push([
        count(run.size),
        "**HNSW minus pgvector**",
        "",
        `pgvector/HNSW ${times(loadRatio)}`,
        `**${mib(rssSaved)}**`,
        "",
        mib(heapGrowth),
        "",
        mib(servedSaved),
        mib(peakSaved),
        `load's own growth: ${mib(kbSaved)}`,
        ms(readHash),
      ]);
    }
  }
  return markdownTable(
    [
      "N",
      "variant",
      "processes",
      "load s, median (range)",
      "RSS after load MiB",
      "heap used MiB",
      "heap growth by the load MiB",
      "external MiB",
      "RSS after lookups MiB",
      "peak RSS MiB",
      "RSS before load MiB",
      "reading + SHA-256 of vectors.hnsw alone, ms",
    ],
    rows,
  );
}

const PHASE_LABEL: Record<TimingPhase, string> = {
  repeated: "rotating passes",
  planner: "1 pass, planner's choice",
  scope_stats: "1 pass, after scope btree + ANALYZE",
};

/** Rows of one table: each system against the reference system of the same phase (timed in the same passes). */
function latencyRows(run: SizeRun, systems: readonly SystemTimings[], reference: string): string[][] {
  return systems.map((system) => {
    const ref = run.query!.systems.find((s) => s.id === reference && s.phase === system.phase);
    const p50s = system.perRepeat.map((s) => s.p50);
    const ratios = ref ? system.perRepeat.map((s, i) => s.p50 / ref.perRepeat[i].p50) : [];
    const statuses = system.l1Statuses
      ? Object.entries(system.l1Statuses)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ")
      : system.fullAnswers !== undefined
        ? `${(system.fullAnswers * 100).toFixed(0)}% with 10 hits`
        : "";
    return [
      count(run.size),
      system.label,
      `${PHASE_LABEL[system.phase]} (${system.perRepeat.length} x ${system.perRepeat[0]?.n ?? 0})`,
      ms(system.pooled.p50),
      ms(system.pooled.p95),
      p50s.length > 1 ? `${ms(Math.min(...p50s))}-${ms(Math.max(...p50s))}` : "one pass",
      ratios.length > 1
        ? `${times(medianOf(ratios))} (${times(Math.min(...ratios))}-${times(Math.max(...ratios))})`
        : ratios.length === 1
          ? times(ratios[0])
          : "n/a",
      statuses,
    ];
  });
}

const LATENCY_HEADER = ["N", "system", "timed", "p50 ms", "p95 ms", "p50 across passes"];

function l1Table(runs: readonly SizeRun[]): string {
  const rows = runs.flatMap((run) =>
    run.query
      ? latencyRows(
          run,
          run.query.systems.filter((s) => !s.id.startsWith("tool_") && !(s.phase !== "repeated" && s.id === "l1_hnsw")),
          "l1_hnsw",
        )
      : [],
  );
  return markdownTable([...LATENCY_HEADER, "p50 / L1 hnswlib in the same passes, median (range)", "answers"], rows);
}

function toolTable(runs: readonly SizeRun[]): string {
  const rows = runs.flatMap((run) =>
    run.query
      ? latencyRows(
          run,
          run.query.systems.filter(
            (s) => s.id.startsWith("tool_") && !(s.phase !== "repeated" && s.id === "tool_hnsw"),
          ),
          "tool_hnsw",
        )
      : [],
  );
  return markdownTable([...LATENCY_HEADER, "p50 / tool hnswlib in the same passes, median (range)", "L1 status"], rows);
}

/** The access path of a plan: its first scan node. */
function accessPath(plan: string): string {
  const node = /(Index Scan using \S+|Seq Scan|Bitmap Heap Scan|Index Only Scan using \S+)/.exec(plan);
  return node ? node[1] : "?";
}

function recallTable(runs: readonly SizeRun[]): string {
  const rows = runs.flatMap(({ size, query }) =>
    query
      ? [
          [
            count(size),
            query.recallAt10.pgIndexVsExact.toFixed(3),
            query.recallAt10.pgIndexEf100VsExact.toFixed(3),
            query.recallAt10.pgScopeStatsVsExact.toFixed(3),
            query.recallAt10.hnswlibVsPgExact.toFixed(3),
            accessPath(query.plans.exact),
            accessPath(query.plans.index),
            accessPath(query.plans.planner),
            accessPath(query.plans.scopeStats),
            `${query.efSearch} / ${query.pgvectorVersion}`,
            query.sameFingerprint && query.queryVectorMaxDiff === 0 ? "yes" : "no",
          ],
        ]
      : [],
  );
  return markdownTable(
    [
      "N",
      "recall@10 pgvector HNSW (ef_search 40) vs exact",
      "recall@10 pgvector HNSW (ef_search 100) vs exact",
      "recall@10 pgvector, scope stats (ef_search 40), vs exact",
      "recall@10 hnswlib vs pgvector exact",
      "plan: exact mode",
      "plan: index forced",
      "plan: planner's choice",
      "plan: after scope btree + ANALYZE",
      "hnsw.ef_search / pgvector",
      "same vectors in both variants",
    ],
    rows,
  );
}

function serverTable(runs: readonly SizeRun[]): string {
  const rows = runs.map(({ size, server }) => [
    count(size),
    mib(server.afterBuild.rssBytes),
    mib(server.afterAll.rssBytes),
    mib(server.afterAll.peakRssBytes),
  ]);
  return markdownTable(["N", "PGlite server RSS after rows MiB", "after index + queries MiB", "peak MiB"], rows);
}

/** The whole report as Markdown: tables, machine load, failures and notes. Pure. */
export function formatSizingReport(report: SizingReport): string {
  const runs = report.sizes;
  const load = runs.map(
    (run) =>
      `- N ${count(run.size)}: ${(run.wallMs / 60000).toFixed(1)} min${run.overBudget ? " (over the size budget)" : ""}; start \`${run.uptimeStart}\`; end \`${run.uptimeEnd}\`${run.srcDigestStart !== run.srcDigestEnd ? "; **src/ changed during this size: its figures mix library versions, rerun it**" : ""}`,
  );
  const failures = runs.flatMap((run) => run.failures.map((f) => `- N ${count(run.size)} ${f.step}: ${f.message}`));
  const skipped = report.skipped.map((s) => `- N ${count(s.size)} skipped: ${s.reason}`);
  return [
    `# L1 in process (hnswlib) vs in pgvector (PGlite): sizing`,
    "",
    `Machine: ${report.machine.cpuCount} x ${report.machine.cpuModel}, ${mib(report.machine.totalMemoryBytes)} MiB, Node ${report.machine.node}. Load: start \`${report.uptimeStart}\`, end \`${report.uptimeEnd}\`.`,
    ...load,
    "",
    "## Build (one build per variant and size)",
    buildTable(runs),
    "",
    "## Serving memory and load (fresh process per load, after a forced GC)",
    memoryTable(runs),
    "",
    "## PGlite server process (the memory moved out of the serving instance)",
    serverTable(runs),
    "",
    "## L1 latency (`kb.l1.search`, k 10, no domain filter), pooled over repeats",
    l1Table(runs),
    "",
    "## Tool lookups (`createLookupKnowledgeTool`, tracePath null)",
    toolTable(runs),
    "",
    "## Recall against pgvector exact (first pass) and the plans of the store's own search SQL",
    recallTable(runs),
    "",
    ...runs
      .flatMap((run) =>
        run.query
          ? [
              `N ${count(run.size)} store SQL: \`${run.query.plans.sql}\` with k and filter values ${JSON.stringify(run.query.plans.params)}`,
            ]
          : [],
      )
      .slice(0, 1),
    ...(failures.length || skipped.length ? ["", "## Failures and skipped sizes", ...failures, ...skipped] : []),
    "",
    "## Notes",
    ...report.notes.map((note) => `- ${note}`),
  ].join("\n");
}

/** Latency summary, shortened for logs. */
export function shortSummary(s: LatencySummary): string {
  return `p50 ${ms(s.p50)} ms, p95 ${ms(s.p95)} ms (n ${s.n})`;
}
