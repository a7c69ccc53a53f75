import hnswlib from "hnswlib-node";
import { GraphWorker } from "./hnsw-worker.js";
import { insertInline, type SharedGraph, whileWriting } from "./hnsw-graph.js";
import type { VectorIndexOptions } from "./vector-index-options.js";
import { checkRows, vectorIndexMisuse } from "./vector-rows.js";

/**
 * A native graph under construction, on this thread or in a worker: vectors arrive in batches
 * under labels 0, 1, 2, ... (the order of arrival). The labels-and-domains view over the result
 * is the caller's; `VectorIndexBuilder` and `VectorIndex.build` are the two callers.
 */
export class GraphBuild {
  readonly #dimensions: number;
  readonly #worker: Promise<GraphWorker> | null;
  readonly #inline: hnswlib.HierarchicalNSW | null;
  #count = 0;
  #closed = false;

  /** Starts a graph with room for `capacity` vectors (it grows past that). */
  constructor(dimensions: number, capacity: number, options: Required<VectorIndexOptions>, worker: boolean) {
    this.#dimensions = dimensions;
    const { m, efConstruction, randomSeed } = options;
    if (!worker) {
      this.#worker = null;
      this.#inline = new hnswlib.HierarchicalNSW("cosine", dimensions);
      this.#inline.initIndex(Math.max(1, capacity), m, efConstruction, randomSeed);
      return;
    }
    this.#inline = null;
    this.#worker = GraphWorker.create().then((graph) => {
      graph.run({
        dimensions,
        capacity,
        m,
        efConstruction,
        randomSeed,
        firstLabel: 0,
        extend: false,
        deleteLabels: new Int32Array(0),
      });
      return graph;
    });
    this.#worker.catch(() => undefined);
  }

  /** Vectors added so far. */
  get count(): number {
    return this.#count;
  }

  /**
   * Adds the rows of `vectors` (each checked first: nothing of a malformed batch is added). In a
   * worker build the array's buffer is transferred to the worker and detached here.
   * @throws LookupKnowledgeError `INVALID_OPTION` for a malformed vector or a closed build.
   */
  async add(vectors: Float32Array): Promise<void> {
    if (this.#closed) throw vectorIndexMisuse("add after finish or abort");
    const count = checkRows(vectors, this.#dimensions);
    if (this.#inline !== null) insertInline(this.#inline, vectors, this.#dimensions, this.#count);
    else (await this.#worker!).add(vectors);
    this.#count += count;
  }

  /**
   * The finished graph; the worker, if any, is released.
   * @throws LookupKnowledgeError `INVALID_OPTION` for a closed build; the worker's failure (see `hnsw-worker.ts`).
   */
  async finish(): Promise<hnswlib.HierarchicalNSW> {
    if (this.#closed) throw vectorIndexMisuse("finish after finish or abort");
    this.#closed = true;
    if (this.#inline !== null) return this.#inline;
    const graph = await this.#worker!;
    try {
      return await graph.finish(this.#dimensions);
    } finally {
      await graph.dispose();
    }
  }

  /** Stops the build and releases its worker and scratch folder. */
  async abort(): Promise<void> {
    this.#closed = true;
    if (this.#worker !== null)
      await this.#worker.then(
        (graph) => graph.dispose(),
        () => undefined,
      );
  }
}

/**
 * A copy of `graph`, extended in a worker: `deleted` labels marked deleted, then the rows of
 * `additions` inserted under labels from `firstLabel`. `graph` itself is not changed.
 * @throws the worker's failure (see `hnsw-worker.ts`).
 */
export async function extendInWorker(
  graph: SharedGraph,
  dimensions: number,
  firstLabel: number,
  deleted: Int32Array,
  additions: Float32Array,
): Promise<hnswlib.HierarchicalNSW> {
  const worker = await GraphWorker.create();
  try {
    await whileWriting(graph, () => graph.index.writeIndex(worker.inputFile));
    worker.run({
      dimensions,
      capacity: 0,
      m: 0,
      efConstruction: 0,
      randomSeed: 0,
      firstLabel,
      extend: true,
      deleteLabels: deleted,
    });
    if (additions.length > 0) worker.add(additions);
    return await worker.finish(dimensions);
  } finally {
    await worker.dispose();
  }
}
