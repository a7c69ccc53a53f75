import { resolve } from "node:path";
import { BenchError } from "./bench-error.js";
import { DEFAULT_DATASET_DIR, REPO_ROOT } from "./dataset/load-scifact.js";
import type { MeasureSettings } from "./measure/measure-systems.js";

/** Everything one `npm run bench` needs to know. */
export interface BenchOptions {
  mode: "full" | "quick";
  sizes: number[];
  dataset: string;
  /** Folder of `latest.json` and `latest.html`. */
  outDir: string;
  /** Chunks of the incremental re-index run; null skips it. */
  incrementalSize: number | null;
  sectionsPerFile: number;
  /** Chunks of the document-sync run (one edited source as a corpus file and as a LangChain document); null skips it. */
  syncSize: number | null;
  measure: MeasureSettings;
  /** Queries the load child serves after loading; null: all 300. */
  serveQueries: number | null;
  /** Milliseconds each child may run before it is killed; null: {@link childTimeoutMs} by size. */
  childTimeoutMs: number | null;
  /** Keep the generated corpus and indexes in the temp folder. */
  keepTemp: boolean;
  /** Chunks of the filtered-lookup run (access groups and domains); null skips it. Default: the largest size. */
  filterSize: number | null;
  /** Admitted-set sizes of the L1 plan rows (exact scan against the graph with the filter). */
  filterPlanSizes: number[];
  /** Chunk counts of the reload runs (a followed index saving a new generation while it serves); empty skips them. */
  reloadSizes: number[];
  /** Files of the generated corpus of the corpus-parse run (previous frontmatter path against gray-matter); null skips it. */
  parseFiles: number | null;
  /** Timed rounds of the corpus-parse run, per corpus. */
  parseRounds: number;
  /** Chunks of the serve run (`serve --http` in a child process against SDK clients); null skips it. */
  serveSize: number | null;
  /** Run only this step (no per-size build, load and query, no incremental run); null: everything. */
  only: BenchStep | null;
}

/** The steps `--only` can pick. */
export type BenchStep = "filter" | "reload" | "sync" | "parse" | "serve";

/** Chunks of a full run's serve run. */
export const SERVE_SIZE = 10_000;

/** Files of the generated corpus of a full run's corpus-parse run. */
export const PARSE_FILES = 10_000;

/** Chunks of the document-sync run of a full run. */
export const SYNC_SIZE = 100_000;

/** Sizes of the reload runs of a full run. */
export const RELOAD_SIZES = [10_000, 100_000];

/** Admitted-set sizes at which both L1 plans are timed, around the cut-over EXACT_SCAN_MAX_CHUNKS (5,000). */
export const FILTER_PLAN_SIZES = [1_000, 2_000, 3_000, 4_000, 6_000, 8_000, 10_000, 20_000, 50_000];

/** Sizes of a full run. */
export const FULL_SIZES = [1_000, 10_000, 100_000];

/** Timed calls of a full run: >= 1,000 calls per system where its cost allows, 60 s per system at most otherwise (at least 20). */
export const FULL_MEASURE: MeasureSettings = {
  warmupCalls: 50,
  warmupMs: 2_000,
  budgetMs: 60_000,
  minCalls: 20,
  maxCalls: 1_200,
};

/** Timed calls of `--quick`: a smoke run, not figures to quote. */
export const QUICK_MEASURE: MeasureSettings = {
  warmupCalls: 5,
  warmupMs: 300,
  budgetMs: 600,
  minCalls: 5,
  maxCalls: 30,
};

export const USAGE = `usage: npm run bench -- [--sizes 1000,10000,100000] [--quick] [--dataset DIR] [--out DIR]
       [--incremental-size 10000 | --no-incremental] [--budget-s 60] [--max-calls 1200]
       [--child-timeout-s N] [--keep-temp] [--filter-size N | --no-filter] [--filter-plan-sizes 1000,...]
       [--reload-sizes 10000,100000 | --no-reload] [--sync-size 100000 | --no-sync]
       [--parse-files 10000 | --no-parse] [--serve-size 10000 | --no-serve] [--only filter|reload|sync|parse|serve]
  --quick            smoke run: 1,000 chunks, a few calls per system, no incremental run
  --sizes            chunk counts, one child process each (default ${FULL_SIZES.join(",")})
  --dataset          BEIR SciFact folder (default ../shared/datasets/scifact next to the repository)
  --out              where latest.json and latest.html go (default bench/results)
  --budget-s         timed-call budget per system and size in seconds; slow systems get fewer calls (default 60)
  --max-calls        timed calls per system at most (default 1200)
  --filter-size      chunks of the filtered-lookup run: access groups and domains of 0.1% to 100%,
                     the tool per filter side by side, L1 recall@10, both L1 plans (default: the largest size)
  --no-filter        skip the filtered-lookup run
  --filter-plan-sizes  admitted-set sizes of the L1 plan rows (default ${FILTER_PLAN_SIZES.join(",")})
  --reload-sizes     chunk counts of the reload runs: a followed index serving lookups while a new
                     generation is saved into its folder (default ${RELOAD_SIZES.join(",")}; none with --quick)
  --no-reload        skip the reload runs
  --sync-size        chunks of the document-sync run: one edited source re-indexed as a corpus file
                     and synced as a LangChain document, side by side (default ${SYNC_SIZE.toLocaleString("en-US")}; none with --quick)
  --no-sync          skip the document-sync run
  --parse-files      files of the generated corpus of the corpus-parse run: the sample corpus and this one
                     parsed through the previous frontmatter path and gray-matter, side by side
                     (default ${PARSE_FILES.toLocaleString("en-US")}; 1,000 with --quick)
  --no-parse         skip the corpus-parse run
  --serve-size       chunks of the serve run: serve --http in a child process, another token's SDK lookups
                     idle and while one token floods with 5 batches of 100, then 10 and 50 clients
                     (default ${SERVE_SIZE.toLocaleString("en-US")}; with --quick, none, or 1,000 with --only serve)
  --no-serve         skip the serve run
  --only STEP        run one step alone: filter (at --filter-size, else the largest of --sizes), reload, sync, parse or serve`;

function positiveInteger(flag: string, text: string | undefined): number {
  const value = Number(text?.replace(/_/g, ""));
  if (text === undefined || !Number.isInteger(value) || value < 1)
    throw new BenchError(`${flag} needs a whole number from 1, got ${text ?? "nothing"}. ${USAGE.split("\n")[0]}`);
  return value;
}

/**
 * Reads the command line (pure apart from path resolution against the working folder).
 * @throws BenchError naming the bad flag or value.
 */
export function parseBenchArgs(argv: readonly string[], cwd = process.cwd()): BenchOptions | "help" {
  let quick = false;
  let sizes: number[] | null = null;
  let dataset = DEFAULT_DATASET_DIR;
  let outDir = resolve(REPO_ROOT, "bench/results");
  let incrementalSize: number | null | undefined;
  let budgetS: number | null = null;
  let maxCalls: number | null = null;
  let childTimeoutS: number | null = null;
  let keepTemp = false;
  let filterSize: number | null | undefined;
  let filterPlanSizes: number[] = FILTER_PLAN_SIZES;
  let only: BenchStep | null = null;
  let reloadSizes: number[] | undefined;
  let syncSize: number | null | undefined;
  let parseFiles: number | null | undefined;
  let serveSize: number | null | undefined;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined || next.startsWith("--"))
        throw new BenchError(`${flag} needs a value. ${USAGE.split("\n")[0]}`);
      return next;
    };
    switch (flag) {
      case "--help":
      case "-h":
        return "help";
      case "--quick":
        quick = true;
        break;
      case "--sizes":
        sizes = value()
          .split(",")
          .map((part) => positiveInteger("--sizes", part.trim()));
        break;
      case "--dataset":
        dataset = resolve(cwd, value());
        break;
      case "--out":
        outDir = resolve(cwd, value());
        break;
      case "--incremental-size":
        incrementalSize = positiveInteger(flag, value());
        break;
      case "--no-incremental":
        incrementalSize = null;
        break;
      case "--budget-s":
        budgetS = positiveInteger(flag, value());
        break;
      case "--max-calls":
        maxCalls = positiveInteger(flag, value());
        break;
      case "--child-timeout-s":
        childTimeoutS = positiveInteger(flag, value());
        break;
      case "--keep-temp":
        keepTemp = true;
        break;
      case "--filter-size":
        filterSize = positiveInteger(flag, value());
        break;
      case "--no-filter":
        filterSize = null;
        break;
      case "--filter-plan-sizes":
        filterPlanSizes = [
          ...new Set(
            value()
              .split(",")
              .map((part) => positiveInteger(flag, part.trim())),
          ),
        ].sort((a, b) => a - b);
        break;
      case "--reload-sizes":
        reloadSizes = [
          ...new Set(
            value()
              .split(",")
              .map((part) => positiveInteger(flag, part.trim())),
          ),
        ].sort((a, b) => a - b);
        break;
      case "--no-reload":
        reloadSizes = [];
        break;
      case "--sync-size":
        syncSize = positiveInteger(flag, value());
        break;
      case "--no-sync":
        syncSize = null;
        break;
      case "--parse-files":
        parseFiles = positiveInteger(flag, value());
        break;
      case "--no-parse":
        parseFiles = null;
        break;
      case "--serve-size":
        serveSize = positiveInteger(flag, value());
        break;
      case "--no-serve":
        serveSize = null;
        break;
      case "--only": {
        const step = value();
        if (step !== "filter" && step !== "reload" && step !== "sync" && step !== "parse" && step !== "serve")
          throw new BenchError(
            `--only takes filter, reload, sync, parse or serve, got ${step}. ${USAGE.split("\n")[0]}`,
          );
        only = step;
        break;
      }
      default:
        throw new BenchError(`unknown argument ${flag}. ${USAGE.split("\n")[0]}`);
    }
  }
  const base = quick ? QUICK_MEASURE : FULL_MEASURE;
  const measure = {
    ...base,
    ...(budgetS !== null ? { budgetMs: budgetS * 1000 } : {}),
    ...(maxCalls !== null ? { maxCalls } : {}),
  };
  const chosen = sizes ?? (quick ? [1_000] : FULL_SIZES);
  if (only === "filter" && filterSize === null)
    throw new BenchError("--only filter and --no-filter leave nothing to run.");
  const reloads = reloadSizes ?? (quick ? [] : RELOAD_SIZES);
  if (only === "reload" && reloads.length === 0)
    throw new BenchError("--only reload and --no-reload leave nothing to run.");
  const sync = syncSize === undefined ? (quick ? null : SYNC_SIZE) : syncSize;
  if (only === "sync" && sync === null) throw new BenchError("--only sync and --no-sync leave nothing to run.");
  const parse = parseFiles === undefined ? (quick ? 1_000 : PARSE_FILES) : parseFiles;
  if (only === "parse" && parse === null) throw new BenchError("--only parse and --no-parse leave nothing to run.");
  // A quick run skips the serve run (a minute of its own) unless it is the step asked for.
  const serve = serveSize === undefined ? (quick ? (only === "serve" ? 1_000 : null) : SERVE_SIZE) : serveSize;
  if (only === "serve" && serve === null) throw new BenchError("--only serve and --no-serve leave nothing to run.");
  return {
    mode: quick ? "quick" : "full",
    sizes: [...new Set(chosen)].sort((a, b) => a - b),
    dataset,
    outDir,
    incrementalSize: incrementalSize === undefined ? (quick ? null : 10_000) : incrementalSize,
    sectionsPerFile: 10,
    syncSize: sync,
    parseFiles: parse,
    parseRounds: quick ? 3 : 15,
    serveSize: serve,
    measure,
    serveQueries: quick ? 20 : null,
    childTimeoutMs: childTimeoutS === null ? null : childTimeoutS * 1000,
    keepTemp,
    filterSize: filterSize === undefined ? Math.max(...chosen) : filterSize,
    filterPlanSizes,
    reloadSizes: reloads,
    only,
  };
}

/**
 * How long a child working on `size` chunks may run: generous (a 100k build takes minutes, and the
 * query child builds every baseline's index too), 30 s per 1,000 chunks and at least 5 minutes.
 */
export function childTimeoutMs(options: Pick<BenchOptions, "childTimeoutMs">, size: number): number {
  return options.childTimeoutMs ?? Math.max(300, Math.ceil(size / 1000) * 30) * 1000;
}

/**
 * How long the corpus-parse child may run: each round parses the generated corpus four times and
 * loads it once, up to 3 s per 1,000 files on a busy 2-core machine; 8 s per 1,000 files and round,
 * and at least 5 minutes (20 minutes for 10,000 files and 15 rounds).
 */
export function parseChildTimeoutMs(
  options: Pick<BenchOptions, "childTimeoutMs">,
  files: number,
  rounds: number,
): number {
  return options.childTimeoutMs ?? Math.max(300, Math.ceil(files / 1000) * rounds * 8) * 1000;
}
