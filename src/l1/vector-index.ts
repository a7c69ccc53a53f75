import hnswlib from "hnswlib-node";
import { LookupKnowledgeError } from "../errors.js";
import type { ChunkFilter } from "../access/chunk-filter.js";
import { EXACT_SCAN_MAX_CHUNKS, exactNearest, LabelVectorCache } from "./exact-search.js";
import { extendInWorker, GraphBuild } from "./graph-build.js";
import { graphNearest, labelAccepts, oversampledNearest, type VectorHit } from "./graph-search.js";
import {
  insertInline,
  type LoadedGraph,
  type SharedGraph,
  sharedGraph,
  useWorker,
  whileWriting,
} from "./hnsw-graph.js";
import { planLabelMapUpdate, type VectorIndexUpdate } from "./label-map-update.js";
import {
  resolveVectorIndexOptions,
  VECTOR_INDEX_DEFAULTS,
  type VectorBuildOptions,
  type VectorIndexOptions,
} from "./vector-index-options.js";
import { labelMapProblem, labelOfChunks } from "./vector-labels.js";
import { checkDimensions, vectorIndexMisuse as misuse } from "./vector-rows.js";

export type { VectorHit } from "./graph-search.js";
export type { LoadedGraph } from "./hnsw-graph.js";
export type { VectorAdditions, VectorIndexUpdate } from "./label-map-update.js";
export {
  resolveVectorIndexOptions,
  VECTOR_INDEX_DEFAULTS,
  WORKER_MIN_VECTORS,
  type VectorBuildOptions,
  type VectorBuildThread,
  type VectorIndexOptions,
} from "./vector-index-options.js";

/**
 * hnswlib-node behind a narrow interface: cosine space, and a domain filter that runs inside the
 * graph search so that it never starves `k`. Vectors are stored under labels, and a label map
 * says which chunk each label is (or that it was deleted), so that an incremental re-index can
 * delete, add and renumber chunks without rebuilding the graph ({@link VectorIndex.update}).
 * A built index has labels equal to chunk numbers.
 */
export class VectorIndex {
  readonly #graph: SharedGraph;
  readonly #version: number;
  /** Label → chunk number, or -1 for a deleted label. */
  readonly #chunkOfLabel: Int32Array;
  /** Domain of each chunk number, for the in-search filter. */
  readonly #domains: readonly (string | undefined)[];
  readonly #live: number;
  readonly #efSearch: number;
  /** Chunk number → label, made at the first exact scan. */
  #labelOfChunk: Int32Array | null = null;
  readonly dimensions: number;

  private constructor(
    graph: SharedGraph,
    version: number,
    chunkOfLabel: Int32Array,
    domains: readonly (string | undefined)[],
    dimensions: number,
    efSearch: number,
  ) {
    this.#graph = graph;
    this.#version = version;
    this.#chunkOfLabel = chunkOfLabel;
    this.#domains = domains;
    this.dimensions = dimensions;
    this.#efSearch = efSearch;
    let live = 0;
    for (const chunk of chunkOfLabel) if (chunk >= 0) live++;
    this.#live = live;
  }

  /**
   * Builds the graph over one vector per chunk: `vectors` holds `domains.length × dimensions`
   * values, row `i` the vector of chunk `i` (checked here: finite, not all zero), and
   * `domains[i]` is the domain of chunk `i`. In a worker (see {@link VectorBuildOptions.thread})
   * the buffer of `vectors` is transferred to it and detached; pass a copy to keep using it.
   * @throws LookupKnowledgeError `INVALID_OPTION` for malformed input; the worker's failure.
   */
  static async build(
    vectors: Float32Array,
    dimensions: number,
    domains: readonly (string | undefined)[],
    options?: VectorIndexOptions,
    build?: VectorBuildOptions,
  ): Promise<VectorIndex> {
    checkDimensions(dimensions);
    const resolved = resolveVectorIndexOptions(options);
    const rows = vectors.length / dimensions;
    const graph = new GraphBuild(dimensions, rows, resolved, useWorker(build?.thread, rows));
    try {
      await graph.add(vectors);
    } catch (error) {
      await graph.abort();
      throw error;
    }
    if (domains.length !== graph.count) {
      await graph.abort();
      throw misuse(`${domains.length} domains for ${graph.count} vectors`);
    }
    return VectorIndex.fromGraph({ index: await graph.finish(), dimensions }, domains, resolved);
  }

  /**
   * Reads a graph written by {@link VectorIndex.save}. `chunkOfLabel` is its label map (see
   * `vector-labels.ts`); without one, label `i` is chunk `i`.
   * @throws LookupKnowledgeError `INDEX_CORRUPT` when the label map does not fit the graph and `domains` (one label per stored vector, every chunk exactly once).
   */
  static async load(
    file: string,
    dimensions: number,
    domains: readonly (string | undefined)[],
    options: VectorIndexOptions = {},
    chunkOfLabel?: Int32Array,
  ): Promise<VectorIndex> {
    return VectorIndex.fromGraph(await VectorIndex.readGraph(file, dimensions), domains, options, chunkOfLabel);
  }

  /** Reads hnswlib's file off the main thread; {@link VectorIndex.fromGraph} makes the index of it. */
  static async readGraph(file: string, dimensions: number): Promise<LoadedGraph> {
    const index = new hnswlib.HierarchicalNSW("cosine", dimensions);
    await index.readIndex(file);
    return { index, dimensions };
  }

  /** The index over a graph {@link VectorIndex.readGraph} read; see {@link VectorIndex.load}. */
  static fromGraph(
    graph: LoadedGraph,
    domains: readonly (string | undefined)[],
    options: VectorIndexOptions = {},
    chunkOfLabel?: Int32Array,
  ): VectorIndex {
    const { index, dimensions } = graph;
    const stored = index.getCurrentCount();
    const map = chunkOfLabel ?? Int32Array.from({ length: stored }, (_, i) => i);
    if (chunkOfLabel !== undefined) {
      const problem = labelMapProblem(map, domains.length, stored);
      if (problem !== null)
        throw new LookupKnowledgeError("INDEX_CORRUPT", `the label map of the vector index ${problem}`);
    }
    return new VectorIndex(
      sharedGraph(index),
      0,
      map,
      domains,
      dimensions,
      options.efSearch ?? VECTOR_INDEX_DEFAULTS.efSearch,
    );
  }

  /**
   * Writes hnswlib's file (the graph only: the label map is {@link VectorIndex.labelMap}).
   * @throws LookupKnowledgeError `INVALID_OPTION` on a superseded view (see {@link VectorIndex.update}).
   */
  async save(file: string): Promise<void> {
    this.#checkCurrent("save");
    await whileWriting(this.#graph, () => this.#graph.index.writeIndex(file));
  }

  /** Live vectors: one per chunk. */
  get size(): number {
    return this.#live;
  }

  /** Vectors stored (live and deleted): the labels in use. */
  get labelCount(): number {
    return this.#chunkOfLabel.length;
  }

  /**
   * Deleted vectors still in the graph. They cost memory and search time; rebuild once they
   * pile up (say, more than a quarter of {@link VectorIndex.labelCount}).
   */
  get deletedCount(): number {
    return this.#chunkOfLabel.length - this.#live;
  }

  /** A copy of the label map: label → chunk number, -1 for a deleted label. */
  labelMap(): Int32Array {
    return this.#chunkOfLabel.slice();
  }

  /**
   * The stored vectors of `chunkIds`, row `i` that of `chunkIds[i]` (unit length: the cosine space
   * keeps them normalised), as a vector store is written from them.
   * @throws LookupKnowledgeError `INVALID_OPTION` for a chunk number the index does not hold.
   */
  vectorsOf(chunkIds: readonly number[]): Float32Array {
    this.#checkCurrent("read vectors of");
    const labelOf = labelOfChunks(this.#chunkOfLabel, this.#domains.length);
    const d = this.dimensions;
    const out = new Float32Array(chunkIds.length * d);
    chunkIds.forEach((chunk, i) => {
      const label = labelOf[chunk] ?? -1;
      if (label < 0) throw misuse(`the index holds no vector for chunk ${chunk}`);
      out.set(this.#graph.index.getPoint(label), i * d);
    });
    return out;
  }

  /**
   * The `k` nearest chunks to `vector`: only among chunks of `filter` when it is a domain, only
   * among the chunks a {@link ChunkFilter} admits (an access scope and domain) when it is one.
   * A filter admitting at most {@link EXACT_SCAN_MAX_CHUNKS} chunks is scanned exactly; a larger
   * one that admits a modest share is served from an oversampled unfiltered search when that
   * yields `k` admitted chunks (see `OVERSAMPLE_FACTOR` in `exact-search.ts`); otherwise the filter runs inside
   * the graph search, so that it never starves `k`.
   */
  search(vector: number[], k: number, filter: string | ChunkFilter | null = null): VectorHit[] {
    const live = this.#live;
    if (live === 0 || k < 1) return [];
    const map = this.#chunkOfLabel;
    const index = this.#graph.index;
    // A superseded view shares a graph that has labels it does not know.
    const stale = this.#graph.version !== this.#version;
    const n = Math.min(k, live);
    if (filter !== null && typeof filter === "object") {
      if (filter.size === 0) return [];
      if (filter.size <= EXACT_SCAN_MAX_CHUNKS && !stale) return this.#scan(vector, k, filter);
      const oversampled = oversampledNearest(index, map, live, vector, n, this.#efSearch, filter);
      if (oversampled !== null) return oversampled;
    }
    return graphNearest(index, map, vector, n, this.#efSearch, labelAccepts(map, this.#domains, filter, stale));
  }

  /** The exact plan: every admitted chunk's vector scored against the query. */
  #scan(vector: number[], k: number, filter: ChunkFilter): VectorHit[] {
    const graph = this.#graph;
    graph.vectors ??= new LabelVectorCache(this.dimensions, (label) => graph.index.getPoint(label));
    this.#labelOfChunk ??= labelOfChunks(this.#chunkOfLabel, this.#domains.length);
    return exactNearest(vector, k, filter.ids, this.#labelOfChunk, graph.vectors);
  }

  /**
   * Applies an incremental change and returns the index of the new numbering: removed chunks'
   * vectors are marked deleted (never returned again; their labels are never reused), surviving
   * chunks keep their vectors under their new numbers, and added vectors get fresh labels. Search
   * then returns new chunk numbers and filters by the new `domains`.
   *
   * Up to {@link WORKER_MIN_VECTORS} additions (with `thread: "auto"`) the graph is changed in
   * place: this index then becomes a superseded view that still answers searches in the old
   * numbering (without the removed chunks) but can no longer be saved or updated. More additions
   * are inserted in a worker into a copy of the graph, leaving this index untouched.
   * Everything is checked before anything changes.
   * @throws LookupKnowledgeError `INVALID_OPTION` when the change is inconsistent (a renumbering that is not one-to-one onto the new chunks, a malformed vector) or this index is superseded; the worker's failure.
   */
  async update(change: VectorIndexUpdate, build: VectorBuildOptions = {}): Promise<VectorIndex> {
    this.#checkCurrent("update");
    const { chunkOfLabel, deleted, additions, addedChunks } = planLabelMapUpdate(
      this.#chunkOfLabel,
      this.#live,
      this.dimensions,
      change,
    );
    const firstLabel = this.#chunkOfLabel.length;
    const graph = this.#graph;
    if (!useWorker(build.thread, addedChunks.length)) {
      if (graph.writing > 0)
        throw misuse("cannot update in place while the index is being saved or copied; await that first");
      graph.version++;
      for (const label of deleted) graph.index.markDelete(label);
      insertInline(graph.index, additions, this.dimensions, firstLabel);
      return new VectorIndex(graph, graph.version, chunkOfLabel, change.domains, this.dimensions, this.#efSearch);
    }
    const index = await extendInWorker(graph, this.dimensions, firstLabel, deleted, additions);
    return new VectorIndex(sharedGraph(index), 0, chunkOfLabel, change.domains, this.dimensions, this.#efSearch);
  }

  /**
   * A fresh graph over the live vectors only, labels equal to chunk numbers again (no deleted
   * vectors left): what to do once {@link VectorIndex.deletedCount} piles up. The vectors are
   * read back from the graph (as hnswlib stores them: 32-bit, unit length), so no embedding is
   * needed. `domains` and `options` default to this index's.
   * @throws LookupKnowledgeError `INVALID_OPTION` on a superseded view or a `domains` of another length; the worker's failure.
   */
  async compact(
    domains: readonly (string | undefined)[] = this.#domains,
    options: VectorIndexOptions = {},
    build: VectorBuildOptions = {},
  ): Promise<VectorIndex> {
    this.#checkCurrent("compact");
    if (domains.length !== this.#live) throw misuse(`compact got ${domains.length} domains for ${this.#live} chunks`);
    const d = this.dimensions;
    const vectors = new Float32Array(this.#live * d);
    this.#chunkOfLabel.forEach((chunk, label) => {
      if (chunk >= 0) vectors.set(this.#graph.index.getPoint(label), chunk * d);
    });
    return VectorIndex.build(vectors, d, domains, { efSearch: this.#efSearch, ...options }, build);
  }

  #checkCurrent(what: string): void {
    if (this.#graph.version !== this.#version)
      throw misuse(`cannot ${what} an index superseded by an update; use the index the update returned`);
  }
}

/** Vectors (live and deleted) in an hnswlib file, read as hnswlib reads it: a cut file fails or falls short. */
export async function storedVectorCount(file: string, dimensions: number): Promise<number> {
  const index = new hnswlib.HierarchicalNSW("cosine", dimensions);
  await index.readIndex(file);
  return index.getCurrentCount();
}
