import { GraphBuild } from "./graph-build.js";
import { useWorker } from "./hnsw-graph.js";
import { resolveVectorIndexOptions, type VectorBuildOptions, type VectorIndexOptions } from "./vector-index-options.js";
import { VectorIndex } from "./vector-index.js";
import { checkDimensions, vectorIndexMisuse } from "./vector-rows.js";

/**
 * Builds a {@link VectorIndex} from vectors handed over in batches, so that a caller can stream
 * embeddings into it while it builds: in a worker thread, the graph grows while the caller embeds
 * the next batch. Labels are the order of arrival: 0, 1, 2, ... Call
 * {@link VectorIndexBuilder.finish} or, on any failure of the caller's own,
 * {@link VectorIndexBuilder.abort}.
 */
export class VectorIndexBuilder {
  readonly #graph: GraphBuild;
  readonly #dimensions: number;
  readonly #options: Required<VectorIndexOptions>;

  private constructor(graph: GraphBuild, dimensions: number, options: Required<VectorIndexOptions>) {
    this.#graph = graph;
    this.#dimensions = dimensions;
    this.#options = options;
  }

  /**
   * Starts a build of `capacity` vectors (more are allowed; the graph grows).
   * @throws LookupKnowledgeError `INVALID_OPTION` for bad dimensions or an HNSW option out of range.
   */
  static start(
    dimensions: number,
    capacity: number,
    options: VectorIndexOptions = {},
    build: VectorBuildOptions = {},
  ): VectorIndexBuilder {
    checkDimensions(dimensions);
    const resolved = resolveVectorIndexOptions(options);
    const graph = new GraphBuild(dimensions, capacity, resolved, useWorker(build.thread, capacity));
    return new VectorIndexBuilder(graph, dimensions, resolved);
  }

  /** Vectors added so far. */
  get count(): number {
    return this.#graph.count;
  }

  /**
   * Adds `vectors.length / dimensions` vectors (each checked: finite, not all zero). In a worker
   * build the array's buffer is transferred to the worker and detached here.
   * @throws LookupKnowledgeError `INVALID_OPTION` for a malformed vector; nothing of the batch is added then.
   */
  add(vectors: Float32Array): Promise<void> {
    return this.#graph.add(vectors);
  }

  /**
   * The finished index; labels are chunk numbers, `domains[i]` the domain of chunk `i`.
   * @throws LookupKnowledgeError `INVALID_OPTION` when `domains` does not have one entry per vector; the worker's failure (see `hnsw-worker.ts`).
   */
  async finish(domains: readonly (string | undefined)[]): Promise<VectorIndex> {
    if (domains.length !== this.#graph.count) {
      await this.#graph.abort();
      throw vectorIndexMisuse(`${domains.length} domains for ${this.#graph.count} vectors`);
    }
    const index = await this.#graph.finish();
    return VectorIndex.fromGraph({ index, dimensions: this.#dimensions }, domains, this.#options);
  }

  /** Stops the build and releases its worker and scratch folder. */
  abort(): Promise<void> {
    return this.#graph.abort();
  }
}
