import { resolve } from "node:path";
import { BenchError } from "../bench-error.js";
import { DEFAULT_DATASET_DIR, REPO_ROOT } from "../dataset/load-scifact.js";

/** Everything one run of `bench/vector-store-sizing.ts` needs to know. */
export interface SizingOptions {
  sizes: number[];
  dataset: string;
  /** The JSON results file. */
  out: string;
  /** Timed SciFact claims per system (of the 300 test claims). @default 200 */
  queries: number;
  /** Timed passes per system, in rotating order. @default 3 */
  repeats: number;
  /** Untimed calls per system, with claims after the timed ones. @default 20 */
  warmup: number;
  /** Fresh load processes per variant, alternating. @default 3 */
  loadRepeats: number;
  /** Tool lookups each load process serves before its second memory reading. @default 20 */
  serveQueries: number;
  /** A size whose steps take longer than this is flagged, and larger sizes are skipped. @default 15 */
  sizeBudgetMin: number;
  /** A child still running after this many minutes is killed. @default 40 */
  childTimeoutMin: number;
  /** For the pgvector index build. @default "256MB" */
  maintenanceWorkMem: string;
  keepTemp: boolean;
  /** Keep the sizes of an existing `--out` file that this run does not measure (to rerun one size). @default false */
  merge: boolean;
}

export const DEFAULT_SIZES = [5_183, 20_000, 50_000];

export const USAGE = `usage: npx tsx bench/vector-store-sizing.ts [--sizes 5183,20000,50000] [--dataset DIR] [--out FILE]
       [--queries 200] [--repeats 3] [--warmup 20] [--load-repeats 3] [--serve-queries 20]
       [--size-budget-min 15] [--child-timeout-min 40] [--maintenance-work-mem 256MB] [--keep-temp] [--merge]
  Per size: build with HNSW and with pgvector (PGlite in a child process), load each in fresh
  processes (memory, load time), L1 and tool latency side by side, recall@10 of the pgvector index.
  --out   JSON results (default bench/results/vector-store-sizing.json)
  --merge keep the sizes already in --out that this run does not measure (rerun one size)`;

function wholeNumber(flag: string, text: string, min: number): number {
  const value = Number(text.replace(/_/g, ""));
  if (!Number.isInteger(value) || value < min)
    throw new BenchError(`${flag} needs a whole number from ${min}, got ${text}. ${USAGE.split("\n")[0]}`);
  return value;
}

/**
 * Reads the command line (pure apart from path resolution against `cwd`).
 * @throws BenchError naming the bad flag or value.
 */
export function parseSizingArgs(argv: readonly string[], cwd = process.cwd()): SizingOptions | "help" {
  const options: SizingOptions = {
    sizes: DEFAULT_SIZES,
    dataset: DEFAULT_DATASET_DIR,
    out: resolve(REPO_ROOT, "bench/results/vector-store-sizing.json"),
    queries: 200,
    repeats: 3,
    warmup: 20,
    loadRepeats: 3,
    serveQueries: 20,
    sizeBudgetMin: 15,
    childTimeoutMin: 40,
    maintenanceWorkMem: "256MB",
    keepTemp: false,
    merge: false,
  };
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
      case "--sizes":
        options.sizes = value()
          .split(",")
          .map((text) => wholeNumber("--sizes", text.trim(), 1));
        break;
      case "--dataset":
        options.dataset = resolve(cwd, value());
        break;
      case "--out":
        options.out = resolve(cwd, value());
        break;
      case "--queries":
        options.queries = wholeNumber(flag, value(), 1);
        break;
      case "--repeats":
        options.repeats = wholeNumber(flag, value(), 1);
        break;
      case "--warmup":
        options.warmup = wholeNumber(flag, value(), 0);
        break;
      case "--load-repeats":
        options.loadRepeats = wholeNumber(flag, value(), 1);
        break;
      case "--serve-queries":
        options.serveQueries = wholeNumber(flag, value(), 0);
        break;
      case "--size-budget-min":
        options.sizeBudgetMin = wholeNumber(flag, value(), 1);
        break;
      case "--child-timeout-min":
        options.childTimeoutMin = wholeNumber(flag, value(), 1);
        break;
      case "--maintenance-work-mem": {
        const text = value();
        if (!/^\d+(kB|MB|GB)$/.test(text))
          throw new BenchError(`--maintenance-work-mem needs a Postgres size such as 256MB, got ${text}`);
        options.maintenanceWorkMem = text;
        break;
      }
      case "--keep-temp":
        options.keepTemp = true;
        break;
      case "--merge":
        options.merge = true;
        break;
      default:
        throw new BenchError(`unknown flag ${flag}. ${USAGE.split("\n")[0]}`);
    }
  }
  if (options.queries + options.warmup > 300)
    throw new BenchError(
      `--queries plus --warmup must be at most the 300 SciFact test claims, got ${options.queries + options.warmup}`,
    );
  return options;
}
