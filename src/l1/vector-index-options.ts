/** Options of the HNSW graph and of how it is built, their defaults and their checks. */
import { LookupKnowledgeError } from "../errors.js";
import { shownJson } from "../shown-value.js";

/** Options of the HNSW graph (recorded in the manifest: they shape the graph). */
export interface VectorIndexOptions {
  /** Links per node (HNSW `M`). @default 16 */
  m?: number;
  /** Candidate list size while building. @default 200 */
  efConstruction?: number;
  /** Candidate list size while searching (raised to `k` when smaller). @default 100 */
  efSearch?: number;
  /** Seed of the level generator, so that builds are repeatable. @default 100 */
  randomSeed?: number;
}

/** Where hnswlib's insertion loop runs; see {@link VectorBuildOptions.thread}. */
export type VectorBuildThread = "auto" | "worker" | "inline";

/** How one build or update runs; none of it shapes the graph, so none of it is recorded. */
export interface VectorBuildOptions {
  /**
   * `"worker"`: in a worker thread, never blocking the caller's event loop (the graph crosses
   * back as a temporary file, which costs about a second per 100,000 vectors). `"inline"`: on the
   * calling thread, blocking it for the whole insertion. `"auto"`: in a worker from
   * {@link WORKER_MIN_VECTORS} vectors to insert, inline below (where a worker's start-up would
   * cost more than the insertion).
   * @default "auto"
   */
  thread?: VectorBuildThread;
}

/** HNSW settings used when the options leave them out. */
export const VECTOR_INDEX_DEFAULTS: Readonly<Required<VectorIndexOptions>> = {
  m: 16,
  efConstruction: 200,
  efSearch: 100,
  randomSeed: 100,
};

/** From this many vectors to insert, `thread: "auto"` uses a worker. */
export const WORKER_MIN_VECTORS = 1_000;

/** Ranges hnswlib works with (it crashes natively on `m` below 2). */
const RANGES: Record<keyof VectorIndexOptions, [number, number]> = {
  m: [2, 512],
  efConstruction: [1, 100_000],
  efSearch: [1, 100_000],
  randomSeed: [0, 2 ** 31 - 1],
};

/**
 * The HNSW options with defaults applied, each checked to be an integer in the range hnswlib
 * handles, so that a bad value is a clear error rather than a native crash.
 * @throws LookupKnowledgeError `INVALID_OPTION` naming the option and its range.
 */
export function resolveVectorIndexOptions(options: VectorIndexOptions = {}): Required<VectorIndexOptions> {
  const resolved = { ...VECTOR_INDEX_DEFAULTS };
  for (const key of Object.keys(RANGES) as (keyof VectorIndexOptions)[]) {
    const value: unknown = options[key];
    if (value === undefined) continue;
    const [min, max] = RANGES[key];
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      throw new LookupKnowledgeError(
        "INVALID_OPTION",
        `option hnsw.${key} must be an integer from ${min} to ${max}, got ${shownJson(value)}.`,
      );
    }
    resolved[key] = value;
  }
  return resolved;
}
