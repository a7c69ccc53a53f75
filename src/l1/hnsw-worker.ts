import hnswlib from "hnswlib-node";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { internalError, LookupKnowledgeError, type LookupKnowledgeErrorCode, errorMessage } from "../errors.js";

/**
 * Builds or extends an HNSW graph in a worker thread, so that hnswlib's synchronous `addPoint`
 * loop never blocks the caller's event loop. hnswlib objects cannot cross threads, so the graph
 * crosses as a file: the worker writes it into a private scratch folder and the caller reads it
 * back with hnswlib's asynchronous `readIndex`.
 *
 * The worker's code is plain JavaScript run with `eval`, loading hnswlib-node from the path this
 * module resolves, so it runs the same from TypeScript sources (tsx, vitest) and from `dist/`.
 */

/**
 * Code of a failed worker. There is no code for "the vector index could not be built" yet; the
 * graph that should exist is missing, which is what `INDEX_CORRUPT` says of a saved one.
 */
const WORKER_FAILED: LookupKnowledgeErrorCode = "INDEX_BUILD_FAILED";

/** What the worker does before taking vectors. */
export interface GraphJob {
  dimensions: number;
  /** Room to allocate when starting a new graph (grown when exceeded). */
  capacity: number;
  m: number;
  efConstruction: number;
  randomSeed: number;
  /** Label of the first vector added; later ones follow in order. */
  firstLabel: number;
  /** Extend the graph in this file (written by the caller into {@link GraphWorker.inputFile}) instead of starting one. */
  extend: boolean;
  /** Labels to mark deleted in the extended graph before adding. */
  deleteLabels: Int32Array;
}

const WORKER_SOURCE = String.raw`
"use strict";
const { parentPort, workerData: job } = require("node:worker_threads");
const { chmodSync } = require("node:fs");
const { HierarchicalNSW } = require(job.hnswlibPath);
const index = new HierarchicalNSW("cosine", job.dimensions);
if (job.extend) {
  index.readIndexSync(job.inputFile);
  for (const label of job.deleteLabels) index.markDelete(label);
} else {
  index.initIndex(Math.max(1, job.capacity), job.m, job.efConstruction, job.randomSeed);
}
const d = job.dimensions;
const point = new Array(d);
let label = job.firstLabel;
parentPort.on("message", (message) => {
  if (message.type === "add") {
    const vectors = message.vectors;
    const count = vectors.length / d;
    const needed = label + count;
    if (needed > index.getMaxElements()) index.resizeIndex(Math.max(needed, Math.ceil(index.getMaxElements() * 1.25)));
    for (let i = 0; i < count; i++) {
      for (let c = 0; c < d; c++) point[c] = vectors[i * d + c];
      index.addPoint(point, label++);
    }
    parentPort.postMessage({ type: "added", count: label - job.firstLabel });
  } else if (message.type === "finish") {
    index.writeIndexSync(job.outputFile);
    chmodSync(job.outputFile, 0o600);
    parentPort.postMessage({ type: "done", stored: index.getCurrentCount() });
    parentPort.close();
  }
});
`;

interface WorkerReply {
  type: "added" | "done";
  /** Vectors added so far ("added"). */
  count?: number;
  /** Vectors in the written graph, deleted ones included ("done"). */
  stored?: number;
}

function hnswlibPath(): string {
  return createRequire(import.meta.url).resolve("hnswlib-node");
}

function failed(detail: string, cause?: unknown): LookupKnowledgeError {
  const memory =
    (cause as { code?: unknown } | undefined)?.code === "ERR_WORKER_OUT_OF_MEMORY"
      ? "; it ran out of memory, so free some or lower hnsw.m"
      : "";
  return new LookupKnowledgeError(
    WORKER_FAILED,
    `the HNSW build worker ${detail}, so the vector index was not built${memory}.`,
    { cause },
  );
}

/** One worker run over a private scratch folder; dispose of it in a `finally`. */
export class GraphWorker {
  readonly #dir: string;
  #worker: Worker | null = null;
  #outcome: Promise<number> | null = null;
  #added = 0;

  private constructor(dir: string) {
    this.#dir = dir;
  }

  /**
   * Creates the scratch folder (mode 0700, under the OS temp folder).
   * @throws LookupKnowledgeError `SCRATCH_UNAVAILABLE` when it cannot be made.
   */
  static async create(): Promise<GraphWorker> {
    try {
      return new GraphWorker(await mkdtemp(join(tmpdir(), "lookup-knowledge-hnsw-build-")));
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      throw new LookupKnowledgeError(
        "SCRATCH_UNAVAILABLE",
        `the HNSW build worker could not get a scratch folder in ${tmpdir()} (${typeof code === "string" ? `${code}, ` : ""}${errorMessage(error)}); set TMPDIR to a writable folder with free space, or build with \`thread: "inline"\`.`,
        { cause: error },
      );
    }
  }

  /** Where the caller writes the graph to extend before {@link GraphWorker.run} with `extend`. */
  get inputFile(): string {
    return join(this.#dir, "input.hnsw");
  }

  /** Vectors handed to the worker so far. */
  get added(): number {
    return this.#added;
  }

  /** Starts the worker. Its failure is held until {@link GraphWorker.finish}, never left unhandled. */
  run(job: GraphJob): void {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        ...job,
        hnswlibPath: hnswlibPath(),
        inputFile: this.inputFile,
        outputFile: join(this.#dir, "output.hnsw"),
      },
    });
    this.#worker = worker;
    this.#outcome = new Promise<number>((resolve, reject) => {
      worker.on("message", (reply: WorkerReply) => {
        if (reply.type === "done") resolve(reply.stored ?? 0);
      });
      // Once resolved, a later rejection is a no-op.
      worker.on("error", (error) => reject(failed(`failed (${errorMessage(error)})`, error)));
      worker.on("exit", (code) => reject(failed(`stopped with exit code ${code} before finishing`)));
    });
    this.#outcome.catch(() => undefined);
  }

  /**
   * Hands `vectors` (`count × dimensions`) to the worker. Its buffer is transferred, and so
   * detached here, when the array spans all of it; otherwise it is copied.
   */
  add(vectors: Float32Array): void {
    if (this.#worker === null) throw internalError("GraphWorker.add before run");
    const own =
      vectors.buffer instanceof ArrayBuffer &&
      vectors.byteOffset === 0 &&
      vectors.byteLength === vectors.buffer.byteLength
        ? vectors
        : vectors.slice();
    this.#added += own.length;
    this.#worker.postMessage({ type: "add", vectors: own }, [own.buffer as ArrayBuffer]);
  }

  /**
   * Lets the worker write the graph, then reads it on the libuv thread pool.
   * @throws LookupKnowledgeError when the worker failed or stopped, or its file does not read.
   */
  async finish(dimensions: number): Promise<hnswlib.HierarchicalNSW> {
    if (this.#worker === null || this.#outcome === null) throw internalError("GraphWorker.finish before run");
    this.#worker.postMessage({ type: "finish" });
    const stored = await this.#outcome;
    // The worker's copy of the graph goes before this thread reads its own.
    await this.#worker.terminate();
    const index = new hnswlib.HierarchicalNSW("cosine", dimensions);
    const file = join(this.#dir, "output.hnsw");
    try {
      await chmod(file, 0o600);
      await index.readIndex(file);
    } catch (error) {
      throw failed(`wrote a graph that does not read back (${errorMessage(error)})`, error);
    }
    if (index.getCurrentCount() !== stored) throw failed(`wrote ${index.getCurrentCount()} of ${stored} vectors`);
    return index;
  }

  /** Stops the worker if it still runs and removes the scratch folder. */
  async dispose(): Promise<void> {
    await this.#worker?.terminate().catch(() => undefined);
    await rm(this.#dir, { recursive: true, force: true });
  }
}
