/**
 * When should a team move L1 out of process? Per corpus size: build with the in-process HNSW graph
 * vs with pgvector (PGlite + pgvector in its own process, over the wire protocol), serving memory
 * and load time of each in fresh processes, L1 and tool latency side by side (pgvector exact and
 * with an HNSW index), and the recall@10 of the approximate answers. Offline: the corpus is
 * SciFact replicated at run time. Prints Markdown; writes bench/results/vector-store-sizing.json.
 *
 *   npx tsx bench/vector-store-sizing.ts --sizes 5183,20000,50000
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { errorText } from "./bench-error.js";
import { checkDatasetDir, REPO_ROOT } from "./dataset/load-scifact.js";
import { portablePath } from "./report/portable-path.js";
import { machineInfo } from "./report/machine-info.js";
import { runChild } from "./spawn-child.js";
import { startPgServerProcess } from "./vector-store/pg-server-process.js";
import { parseSizingArgs, USAGE, type SizingOptions } from "./vector-store/sizing-options.js";
import { formatSizingReport, shortSummary, type SizeRun, type SizingReport } from "./vector-store/sizing-report.js";
import type {
  BuildVariantResult,
  LoadVariantResult,
  PgTarget,
  QueryVariantsResult,
  SizingSpec,
  Variant,
} from "./vector-store/sizing-spec.js";

const CHILD = fileURLToPath(new URL("./vector-store/sizing-child.ts", import.meta.url));

function say(line: string): void {
  process.stderr.write(`sizing: ${line}\n`);
}

/** `uptime`'s line (load averages over 1, 5 and 15 minutes), else the load averages alone. */
function uptimeLine(): string {
  try {
    return execFileSync("uptime", { encoding: "utf8" }).trim();
  } catch {
    return `load average: ${loadavg()
      .map((v) => v.toFixed(2))
      .join(", ")}`;
  }
}

/**
 * SHA-256 over every file below src/ (names and contents): the children import the library
 * afresh, so a library edited mid-run would make one size mix versions. Compared per size.
 */
async function srcDigest(): Promise<string> {
  const hash = createHash("sha256");
  const entries = await readdir(join(REPO_ROOT, "src"), { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
    .sort();
  for (const file of files)
    hash
      .update(file)
      .update("\0")
      .update(await readFile(file))
      .update("\0");
  return hash.digest("hex").slice(0, 16);
}

const NOTES = [
  "PGlite is Postgres compiled to single-threaded WASM, run here in one child process on the same 2-core machine as the serving process, behind @electric-sql/pglite-socket (which serialises every connection onto one session). Its absolute latencies are not a managed Postgres's (native code, its own cores, a network hop instead of loopback); read the pgvector figures as ratios and the serving-instance memory as the useful result.",
  "Memory: each load is a fresh `node --expose-gc --import tsx` process; figures are process.memoryUsage() after two forced GCs. RSS includes Node, tsx and the imported modules (the 'RSS before load' column: the store variant has also imported pg and @langchain/community and opened its pool). hnswlib's graph is native memory: it shows in RSS, not in the V8 heap.",
  "pgvector modes, one table with the HNSW index present: 'sequential scan (exact)' sets enable_indexscan = off; 'HNSW index (forced)' sets enable_seqscan = off; 'planner's choice' resets both. The repeated systems run in rotating order, one block of all timed claims per system per pass, after a warm-up on other claims. The planner's-choice and scope-statistics passes are single passes, each with its own hnswlib pass for the ratio.",
  "Every store search filters on the row scope (`WHERE metadata->>'lk_kb' = $3 AND metadata->>'lk_gen' = $4`, the SQL is in the JSON). Postgres has no statistics on those JSON expressions and estimates about one matching row, so with the HNSW index present it still chooses a sequential scan (see the plan columns): out of the box, every lookup scans the whole table. A btree on the two expressions followed by ANALYZE gives it statistics; then it chooses the HNSW index. With several knowledge bases or generations in one table the filter becomes selective and an HNSW scan filters after the index (hnsw.ef_search candidates, fewer than k hits) unless hnsw.iterative_scan is on; this run has one knowledge base per table.",
  "Graph settings differ by default and are left so: hnswlib here uses M 16, efConstruction 200 (100 from 50,000 chunks), efSearch 100; pgvector's index is built with its defaults (m 16, ef_construction 64) and searched at ef_search 40 (its default) and 100 (matched). The hnswlib recall column is against the same exact answers.",
  "The load processes run after the query process, so their lookups see the HNSW index and the scope statistics.",
  "Tool lookups are invoked as ToolCalls (`{ type: 'tool_call', args: { query } }`, as bench/systems/lookup-tool.ts does) so that the artifact's l1Status can be counted: the L1 status column says whether the lookups really got L1 hits ('ok') or answered from L0 alone ('empty', 'error').",
  "connectPgVectorStore creates the `embedding` column as plain `vector` (no dimensions): `CREATE INDEX ... USING hnsw (embedding vector_cosine_ops)` then fails with 'column does not have dimensions', and LangChain's own `PGVectorStore.createHnswIndex({ dimensions })` builds an expression index on `embedding::vector(d)` that the store's query (`ORDER BY embedding <=> $1`) does not use (see indexNotes in the JSON). The bench types the column first (`ALTER TABLE ... ALTER COLUMN embedding TYPE vector(d)`) and then creates the plain index.",
  "The SciFact chunks carry no domain (BEIR rows have no category), so there is no domain-filtered measurement; a pgvector HNSW index with a selective WHERE filters after the index scan (ef_search candidates), which this run does not cover.",
  "A store-backed build still builds (and saves) the local HNSW graph, kept for updates: it costs the HNSW build plus the row writing. A store-backed load does not parse that graph; the 'reading + SHA-256 of vectors.hnsw alone' column is what reading and checking the file costs by itself (library versions before 2026-12-01 22:54 still read and hashed it in a store-backed load; later ones skip it).",
  "Sizes are measured one after another; a size rerun with --merge comes from another run (its own load figures are in its row). Every size records a digest of src/ at its start and end; a size during which the library changed is marked.",
  "Builds run once per variant and size (they are minutes long at 50k): the build difference is a single noisy pair; the row-writing seconds are timed around the store's own calls and are the firmer figure.",
];

/** Runs one child; a failure is recorded and null returned. */
async function step<T>(spec: SizingSpec, run: SizeRun, options: SizingOptions, resultDir: string): Promise<T | null> {
  const name = `${spec.task}${"variant" in spec ? ` ${spec.variant}` : ""}`;
  say(`${name} at ${spec.size.toLocaleString("en-US")}...`);
  const outcome = await runChild<T>(spec, { resultDir, timeoutMs: options.childTimeoutMin * 60_000, script: CHILD });
  if (outcome.ok) {
    say(`${name} at ${spec.size.toLocaleString("en-US")} done in ${(outcome.wallMs / 1000).toFixed(1)} s`);
    return outcome.result;
  }
  say(`FAILED: ${outcome.error}`);
  run.failures.push({
    step: name,
    message: outcome.error,
    ...(outcome.partial !== undefined ? { partial: outcome.partial } : {}),
  });
  return null;
}

async function measureSize(size: number, options: SizingOptions, workDir: string, first: boolean): Promise<SizeRun> {
  const started = performance.now();
  const run: SizeRun = {
    size,
    wallMs: 0,
    overBudget: false,
    srcDigestStart: await srcDigest(),
    srcDigestEnd: "",
    uptimeStart: uptimeLine(),
    uptimeEnd: "",
    build: { hnsw: null, store: null },
    query: null,
    loads: { hnsw: [], store: [] },
    server: { afterBuild: { rssBytes: null, peakRssBytes: null }, afterAll: { rssBytes: null, peakRssBytes: null } },
    failures: [],
  };
  // A fresh database per size, so that its memory is this size's.
  const server = await startPgServerProcess();
  const pg: PgTarget = { url: server.url, tableName: `lk_sizing_n${size}` };
  const dirs: Record<Variant, string> = { hnsw: join(workDir, `hnsw-${size}`), store: join(workDir, `store-${size}`) };
  const resultDir = join(workDir, "results");
  await mkdir(resultDir, { recursive: true });
  try {
    for (const variant of ["hnsw", "store"] as const) {
      run.build[variant] = await step<BuildVariantResult>(
        {
          task: "build",
          variant,
          size,
          dataset: options.dataset,
          indexDir: dirs[variant],
          pg: variant === "store" ? pg : null,
        },
        run,
        options,
        resultDir,
      );
    }
    run.server.afterBuild = await server.memory();
    if (run.build.hnsw && run.build.store) {
      run.query = await step<QueryVariantsResult>(
        {
          task: "query",
          size,
          dataset: options.dataset,
          hnswDir: dirs.hnsw,
          storeDir: dirs.store,
          pg,
          queries: options.queries,
          repeats: options.repeats,
          warmup: options.warmup,
          indexNotes: first,
          maintenanceWorkMem: options.maintenanceWorkMem,
        },
        run,
        options,
        resultDir,
      );
      for (let repeat = 0; repeat < options.loadRepeats; repeat++) {
        const order: Variant[] = repeat % 2 === 0 ? ["hnsw", "store"] : ["store", "hnsw"];
        for (const variant of order) {
          const result = await step<LoadVariantResult>(
            {
              task: "load",
              variant,
              size,
              dataset: options.dataset,
              indexDir: dirs[variant],
              pg: variant === "store" ? pg : null,
              serveQueries: options.serveQueries,
            },
            run,
            options,
            resultDir,
          );
          if (result) {
            run.loads[variant].push(result);
            say(
              `  ${variant}: load ${(result.loadMs / 1000).toFixed(2)} s, rss ${(result.afterLoad.rss / 2 ** 20).toFixed(0)} MiB, serve ${shortSummary(result.serve)}`,
            );
          }
        }
      }
    }
    run.server.afterAll = await server.memory();
  } finally {
    await server.stop();
    if (!options.keepTemp) {
      await rm(dirs.hnsw, { recursive: true, force: true });
      await rm(dirs.store, { recursive: true, force: true });
    }
  }
  run.wallMs = performance.now() - started;
  run.overBudget = run.wallMs > options.sizeBudgetMin * 60_000;
  run.uptimeEnd = uptimeLine();
  run.srcDigestEnd = await srcDigest();
  if (run.srcDigestEnd !== run.srcDigestStart)
    say(`WARNING: src/ changed while N ${size} ran; its figures mix library versions`);
  return run;
}

async function main(): Promise<number> {
  let options: SizingOptions | "help";
  try {
    options = parseSizingArgs(process.argv.slice(2));
    if (options !== "help") checkDatasetDir(options.dataset);
  } catch (error) {
    process.stderr.write(`${errorText(error)}\n`);
    return 2;
  }
  if (options === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const startedAt = new Date().toISOString();
  const machine = machineInfo();
  const uptimeStart = uptimeLine();
  say(`machine: ${uptimeStart}`);
  const workDir = await mkdtemp(join(tmpdir(), "lk-vector-store-sizing-"));
  const sizes: SizeRun[] = [];
  const skipped: SizingReport["skipped"] = [];
  const kept: SizeRun[] = [];
  if (options.merge) {
    try {
      const previous = JSON.parse(await readFile(options.out, "utf8")) as SizingReport;
      kept.push(...previous.sizes.filter((run) => !options.sizes.includes(run.size)));
      say(`keeping ${kept.map((run) => run.size).join(", ") || "no sizes"} from ${options.out}`);
    } catch (error) {
      say(`--merge: nothing to keep from ${options.out} (${errorText(error)})`);
    }
  }
  const write = async () => {
    machine.loadavgEnd = loadavg();
    const all = [...kept, ...sizes].sort((a, b) => a.size - b.size);
    const report: SizingReport = {
      startedAt,
      finishedAt: new Date().toISOString(),
      machine,
      uptimeStart,
      uptimeEnd: uptimeLine(),
      options: { ...options, dataset: portablePath(options.dataset), out: portablePath(options.out) },
      sizes: all,
      skipped,
      notes: NOTES,
    };
    await mkdir(dirname(options.out), { recursive: true });
    await writeFile(options.out, `${JSON.stringify(report, null, 2)}\n`);
    return report;
  };
  try {
    let overBudgetAt: number | null = null;
    for (const [i, size] of [...options.sizes].sort((a, b) => a - b).entries()) {
      if (overBudgetAt !== null) {
        skipped.push({
          size,
          reason: `N ${overBudgetAt.toLocaleString("en-US")} already took longer than the ${options.sizeBudgetMin}-minute size budget`,
        });
        continue;
      }
      const run = await measureSize(size, options, workDir, i === 0);
      sizes.push(run);
      if (run.overBudget) overBudgetAt = size;
      await write(); // keep what finished, whatever happens next
    }
  } finally {
    if (!options.keepTemp) await rm(workDir, { recursive: true, force: true });
    else say(`kept ${workDir}`);
  }
  const report = await write();
  process.stdout.write(`${formatSizingReport(report)}\n`);
  say(`wrote ${options.out}`);
  return sizes.some((run) => run.failures.length > 0 || run.srcDigestStart !== run.srcDigestEnd) ? 1 : 0;
}

process.exitCode = await main();
