/**
 * `npm run bench`: one child process per size and step (build, load + serve, query), the systems
 * side by side on the same queries, then the incremental re-index; writes
 * `bench/results/latest.json` and `latest.html` and prints a compact table with the ratios to
 * the floors and the goals.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { BenchError, errorText } from "./bench-error.js";
import { childTimeoutMs, parseBenchArgs, parseChildTimeoutMs, USAGE, type BenchOptions } from "./bench-options.js";
import { checkDatasetDir } from "./dataset/load-scifact.js";
import { checkGoals } from "./report/goals.js";
import { portablePath } from "./report/portable-path.js";
import { writeCommittedResults } from "./report/committed-results.js";
import { renderHtmlReport } from "./report/html-report.js";
import { machineInfo } from "./report/machine-info.js";
import { packageVersions } from "./report/package-versions.js";
import { formatReport } from "./report/print-report.js";
import { computeRatios } from "./report/ratios.js";
import type { BenchReport, Failure, SizeReport } from "./report/report-model.js";
import { runChild, type ChildOutcome } from "./spawn-child.js";
import type { BuildResult } from "./tasks/build-task.js";
import type { FilterResult } from "./tasks/filter-task.js";
import type { ReloadResult } from "./tasks/reload-task.js";
import type { IncrementalResult } from "./tasks/incremental-task.js";
import type { DocumentSyncResult } from "./tasks/document-sync-task.js";
import type { LoadResult } from "./tasks/load-task.js";
import type { ParseResult } from "./tasks/parse-task.js";
import type { QueryResult } from "./tasks/query-task.js";
import type { ServeResult } from "./tasks/serve-task.js";
import type { TaskSpec } from "./tasks/task-spec.js";

function say(line: string): void {
  process.stderr.write(`bench: ${line}\n`);
}

/** Runs one child and files a failure when it does not finish. */
async function step<T>(
  spec: TaskSpec,
  options: BenchOptions,
  resultDir: string,
  failures: Failure[],
): Promise<T | null> {
  say(`${spec.task} at ${spec.size.toLocaleString("en-US")} chunks...`);
  const outcome: ChildOutcome<T> = await runChild<T>(spec, {
    resultDir,
    timeoutMs:
      spec.task === "parse" ? parseChildTimeoutMs(options, spec.size, spec.rounds) : childTimeoutMs(options, spec.size),
  });
  if (outcome.ok) {
    say(`${spec.task} at ${spec.size.toLocaleString("en-US")} done in ${(outcome.wallMs / 1000).toFixed(1)} s`);
    return outcome.result;
  }
  say(`FAILED: ${outcome.error}`);
  failures.push({
    step: spec.task,
    size: spec.size,
    message: outcome.error,
    ...(outcome.partial !== undefined ? { partial: outcome.partial } : {}),
  });
  return null;
}

function notesFor(sizes: SizeReport[]): string[] {
  const notes = new Set<string>();
  for (const size of sizes) {
    const nodes = size.query?.graphNodes;
    if (nodes)
      notes.add(
        `floor: an empty StateGraph of ${nodes.length} no-op nodes in a chain, the node count of our retrieval graph (${nodes.join(", ")}); a lookup runs ${nodes.length - 1} of them (collect_evidence or l0_fallback), so the floor runs one step more than the tool.`,
      );
  }
  notes.add(
    "raw engines are built by the bench over the same chunks: FlexSearch Document (title + text, tokenize strict, limit 10) and hnswlib (cosine, our index's M / efConstruction / seed, efSearch 100, k 10) over the same LSA vectors, the query vector computed beforehand.",
  );
  notes.add(
    "LangChain: EnsembleRetriever (default weights) over BM25Retriever (k 10) and HNSWLib (its own defaults, k 10) with our LSA embeddings and the same document vectors.",
  );
  notes.add(
    "per-system calls: as many as the time budget allows at the warm-up cost, between the minimum and maximum calls; a system with fewer calls than queries is timed on the first queries only.",
  );
  return [...notes];
}

async function main(): Promise<number> {
  let options: BenchOptions | "help";
  try {
    options = parseBenchArgs(process.argv.slice(2));
    if (options !== "help") checkDatasetDir(options.dataset);
  } catch (error) {
    process.stderr.write(`${errorText(error)}\n`);
    return 2;
  }
  if (options === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    // A library that does not even load (a half-saved edit in src/) fails once here, not in every child.
    await import("../src/index.js");
  } catch (error) {
    process.stderr.write(`bench: the library in src/ does not load: ${errorText(error)}\n`);
    return 1;
  }
  const started = new Date();
  const machine = machineInfo();
  const work = await mkdtemp(join(tmpdir(), "lookup-knowledge-bench-"));
  const resultDir = join(work, "results");
  await mkdir(resultDir, { recursive: true });
  const steps =
    options.only === "filter"
      ? `only the filtered lookups at ${options.filterSize}`
      : options.only === "reload"
        ? `only the reloads at ${options.reloadSizes.join(", ")}`
        : options.only === "sync"
          ? `only the document sync at ${options.syncSize}`
          : options.only === "parse"
            ? `only the corpus parse (sample corpus and ${options.parseFiles} files)`
            : options.only === "serve"
              ? `only the serve run at ${options.serveSize}`
              : `sizes ${options.sizes.join(", ")}${options.filterSize !== null ? `; filtered lookups at ${options.filterSize}` : ""}${options.reloadSizes.length > 0 ? `; reloads at ${options.reloadSizes.join(", ")}` : ""}`;
  say(`${steps}; working in ${work}`);
  const failures: Failure[] = [];
  const sizes: SizeReport[] = [];
  let incremental: Partial<IncrementalResult> | null = null;
  let filter: Partial<FilterResult> | null = null;
  let documentSync: Partial<DocumentSyncResult> | null = null;
  const reloads: Array<Partial<ReloadResult>> = [];
  let corpusParse: Partial<ParseResult> | null = null;
  let serve: Partial<ServeResult> | null = null;
  try {
    for (const size of options.only === null ? options.sizes : []) {
      const sizeDir = join(work, `size-${size}`);
      await mkdir(sizeDir, { recursive: true });
      const indexDir = join(sizeDir, "index");
      const common = { size, dataset: options.dataset };
      const build = await step<BuildResult>({ task: "build", ...common, indexDir }, options, resultDir, failures);
      const load = build
        ? await step<LoadResult>(
            { task: "load", ...common, indexDir, workDir: sizeDir, serveQueries: options.serveQueries },
            options,
            resultDir,
            failures,
          )
        : null;
      const query = build
        ? await step<QueryResult>(
            { task: "query", ...common, indexDir, workDir: sizeDir, measure: options.measure },
            options,
            resultDir,
            failures,
          )
        : null;
      const ratios = query ? computeRatios(Object.fromEntries(query.systems.map((s) => [s.id, s.latency]))) : null;
      sizes.push({ size, build, load, query, ratios });
      // The index of a finished size is not needed again; 100k indexes are hundreds of MB.
      if (!options.keepTemp) await rm(sizeDir, { recursive: true, force: true });
    }
    if (options.incrementalSize !== null && options.only === null) {
      const size = options.incrementalSize;
      const workDir = join(work, `incremental-${size}`);
      await mkdir(workDir, { recursive: true });
      incremental = await step<IncrementalResult>(
        { task: "incremental", size, dataset: options.dataset, workDir, sectionsPerFile: options.sectionsPerFile },
        options,
        resultDir,
        failures,
      );
      incremental ??=
        (failures.find((f) => f.step === "incremental")?.partial as Partial<IncrementalResult> | undefined) ?? null;
    }
    if (options.syncSize !== null && (options.only === null || options.only === "sync")) {
      const size = options.syncSize;
      const workDir = join(work, `sync-${size}`);
      await mkdir(workDir, { recursive: true });
      documentSync = await step<DocumentSyncResult>(
        { task: "sync", size, dataset: options.dataset, workDir, sectionsPerFile: options.sectionsPerFile },
        options,
        resultDir,
        failures,
      );
      documentSync ??=
        (failures.find((f) => f.step === "sync")?.partial as Partial<DocumentSyncResult> | undefined) ?? null;
      if (!options.keepTemp) await rm(workDir, { recursive: true, force: true });
    }
    if (options.filterSize !== null && (options.only === null || options.only === "filter")) {
      const size = options.filterSize;
      const workDir = join(work, `filter-${size}`);
      await mkdir(workDir, { recursive: true });
      filter = await step<FilterResult>(
        {
          task: "filter",
          size,
          dataset: options.dataset,
          workDir,
          measure: options.measure,
          planSizes: options.filterPlanSizes,
        },
        options,
        resultDir,
        failures,
      );
      filter ??= (failures.find((f) => f.step === "filter")?.partial as Partial<FilterResult> | undefined) ?? null;
      if (!options.keepTemp) await rm(workDir, { recursive: true, force: true });
    }
    if (options.parseFiles !== null && (options.only === null || options.only === "parse")) {
      const size = options.parseFiles;
      const workDir = join(work, `parse-${size}`);
      await mkdir(workDir, { recursive: true });
      corpusParse = await step<ParseResult>(
        { task: "parse", size, dataset: options.dataset, workDir, rounds: options.parseRounds },
        options,
        resultDir,
        failures,
      );
      corpusParse ??= (failures.find((f) => f.step === "parse")?.partial as Partial<ParseResult> | undefined) ?? null;
      if (!options.keepTemp) await rm(workDir, { recursive: true, force: true });
    }
    if (options.serveSize !== null && (options.only === null || options.only === "serve")) {
      const size = options.serveSize;
      const workDir = join(work, `serve-${size}`);
      await mkdir(workDir, { recursive: true });
      serve = await step<ServeResult>(
        { task: "serve", size, dataset: options.dataset, workDir },
        options,
        resultDir,
        failures,
      );
      serve ??= (failures.find((f) => f.step === "serve")?.partial as Partial<ServeResult> | undefined) ?? null;
      if (!options.keepTemp) await rm(workDir, { recursive: true, force: true });
    }
    for (const size of options.only === null || options.only === "reload" ? options.reloadSizes : []) {
      const workDir = join(work, `reload-${size}`);
      await mkdir(workDir, { recursive: true });
      const reload = await step<ReloadResult>(
        { task: "reload", size, dataset: options.dataset, indexDir: join(workDir, "index") },
        options,
        resultDir,
        failures,
      );
      const partial =
        reload ?? (failures.find((f) => f.step === "reload")?.partial as Partial<ReloadResult> | undefined);
      if (partial) reloads.push(partial);
      if (!options.keepTemp) await rm(workDir, { recursive: true, force: true });
    }
  } finally {
    if (!options.keepTemp) await rm(work, { recursive: true, force: true });
  }

  machine.loadavgEnd = loadavg();
  const finished = new Date();
  const report: BenchReport = {
    schema: "lookup-knowledge-bench/1",
    mode: options.mode,
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - started.getTime(),
    command: [
      "npm run bench --",
      ...process.argv.slice(2).map((arg) => (isAbsolute(arg) ? portablePath(arg) : arg)),
    ].join(" "),
    machine,
    packages: packageVersions(),
    dataset: portablePath(options.dataset),
    measure: options.measure,
    sizes,
    incremental,
    filter,
    reloads,
    documentSync,
    corpusParse,
    serve,
    goals: checkGoals(sizes, incremental),
    failures,
    notes: notesFor(sizes),
  };
  await mkdir(options.outDir, { recursive: true });
  const jsonFile = join(options.outDir, "latest.json");
  const htmlFile = join(options.outDir, "latest.html");
  await writeFile(jsonFile, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(htmlFile, renderHtmlReport(report));
  const written = [jsonFile, htmlFile];
  // The committed figures of the steps that have them: a full run's only (a --quick run is a smoke test).
  const full = options.mode === "full";
  written.push(
    ...(await writeCommittedResults(options.outDir, report, [
      ...(full && filter !== null
        ? [{ file: "filtered-lookups.json", schema: "lookup-knowledge-bench-filter/1", figures: { filter } }]
        : []),
      ...(full && reloads.length > 0
        ? [{ file: "reloads.json", schema: "lookup-knowledge-bench-reload/1", figures: { reloads } }]
        : []),
      ...(full && documentSync !== null
        ? [{ file: "document-sync.json", schema: "lookup-knowledge-bench-sync/1", figures: { documentSync } }]
        : []),
      ...(full && corpusParse !== null
        ? [{ file: "corpus-parse.json", schema: "lookup-knowledge-bench-parse/1", figures: { corpusParse } }]
        : []),
      ...(full && serve !== null
        ? [{ file: "serve.json", schema: "lookup-knowledge-bench-serve/1", figures: { serve } }]
        : []),
    ])),
  );
  process.stdout.write(`${formatReport(report)}\n\nwrote ${written.join(", ")}\n`);
  return failures.length === 0 ? 0 : 1;
}

try {
  process.exitCode = await main();
} catch (error) {
  process.stderr.write(`${error instanceof BenchError ? error.message : `bench: ${errorText(error)}`}\n`);
  process.exitCode = 1;
}
