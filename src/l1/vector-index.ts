import hnswlib from "hnswlib-node";
import { LookupKnowledgeError } from "../errors.js";
import { GraphWorker } from "./hnsw-worker.js";
import type { ChunkFilter } from "../access/chunk-filter.js";
import {
  EXACT_SCAN_MAX_CHUNKS,
  exactNearest,
  LabelVectorCache,
  OVERSAMPLE_FACTOR,
  OVERSAMPLE_MAX_DEPTH,
  OVERSAMPLE_MAX_SHARE,
} from "./exact-search.js";
import { labelMapProblem } from "./vector-labels.js";
import {
  resolveVectorIndexOptions,
  VECTOR_INDEX_DEFAULTS,
  WORKER_MIN_VECTORS,
  type VectorBuildOptions,
  type VectorBuildThread,
  type VectorIndexOptions,
} from "./vector-index-options.js";

export {
  resolveVectorIndexOptions,
  VECTOR_INDEX_DEFAULTS,
  WORKER_MIN_VECTORS,
  type VectorBuildOptions,
  type VectorBuildThread,
  type VectorIndexOptions,
} from "./vector-index-options.js";

/** One dense hit: chunk number and cosine similarity (higher is better). */
export interface VectorHit {
  id: number;
  similarity: number;
}

/** New vectors of an {@link VectorIndex.update}. */
export interface VectorAdditions {
  /** `chunkIds.length × dimensions` values: row `i` is the vector of chunk `chunkIds[i]`. */
  vectors: Float32Array;
  /** Chunk numbers (new numbering) of the rows of `vectors`. */
  chunkIds: readonly number[];
}

/** One incremental change of a {@link VectorIndex}: see {@link VectorIndex.update}. */
export interface VectorIndexUpdate {
  /**
   * Previous chunk number → new chunk number, `-1` for a chunk whose vector is removed; one
   * entry per chunk of the previous numbering (`previous.chunkCount`).
   */
  renumber: Int32Array;
  /** Chunk numbers (previous numbering) to remove; when given it must list exactly the `-1`s of `renumber`. @default derived from `renumber` */
  remove?: readonly number[];
  /** Vectors of new or changed chunks. A changed chunk is removed and added again. @default none */
  add?: VectorAdditions;
  /** Domain of every chunk of the new numbering; its length is the new chunk count. */
  domains: readonly (string | undefined)[];
}

function misuse(message: string): LookupKnowledgeError {
  return new LookupKnowledgeError("INVALID_OPTION", `VectorIndex: ${message}.`);
}

function useWorker(thread: VectorBuildThread | undefined, vectors: number): boolean {
  return thread === "worker" || ((thread ?? "auto") === "auto" && vectors >= WORKER_MIN_VECTORS);
}

/** What is wrong with row `row` of `vectors`, or null: finite numbers (as 32-bit floats), not all zero. */
function rowProblem(vectors: Float32Array, row: number, dimensions: number): string | null {
  let nonZero = false;
  for (let c = row * dimensions; c < (row + 1) * dimensions; c++) {
    if (!Number.isFinite(vectors[c])) return `holds ${vectors[c]} at position ${c - row * dimensions}`;
    if (vectors[c] !== 0) nonZero = true;
  }
  return nonZero ? null : "is all zeros";
}

function checkRows(vectors: Float32Array, dimensions: number): number {
  if (!Number.isInteger(dimensions) || dimensions < 1)
    throw misuse(`dimensions must be an integer >= 1, got ${dimensions}`);
  if (vectors.length % dimensions !== 0)
    throw misuse(`${vectors.length} values are not a whole number of ${dimensions}-dimensional vectors`);
  const count = vectors.length / dimensions;
  for (let row = 0; row < count; row++) {
    const problem = rowProblem(vectors, row, dimensions);
    if (problem !== null) throw misuse(`vector ${row} ${problem}`);
  }
  return count;
}

/** Inserts rows of `vectors` under consecutive labels from `firstLabel`, on this thread. */
/** A graph read from hnswlib's file, not yet given its labels and domains. */
export interface LoadedGraph {
  readonly index: hnswlib.HierarchicalNSW;
  readonly dimensions: number;
}

function insertInline(
  index: hnswlib.HierarchicalNSW,
  vectors: Float32Array,
  dimensions: number,
  firstLabel: number,
): void {
  const point = new Array<number>(dimensions);
  const count = vectors.length / dimensions;
  for (let i = 0; i < count; i++) {
    for (let c = 0; c < dimensions; c++) point[c] = vectors[i * dimensions + c];
    index.addPoint(point, firstLabel + i);
  }
}

/** The native graph, shared by the versions of an index updated in place. */
interface SharedGraph {
  index: hnswlib.HierarchicalNSW;
  /** Vectors copied out for exact scans of small filtered sets, made at the first one. */
  vectors?: LabelVectorCache;
  /** Bumped by every in-place update; a view made at an older version is stale. */
  version: number;
  /** Asynchronous writes of the graph in flight, which an in-place update must not race. */
  writing: number;
}

/** Runs an asynchronous write of the shared graph, counted so that no in-place update races it. */
async function whileWriting<T>(graph: SharedGraph, write: () => Promise<T>): Promise<T> {
  graph.writing++;
  try {
    return await write();
  } finally {
    graph.writing--;
  }
}

/**
 * Builds a graph from vectors handed over in batches, so that a caller can stream embeddings
 * into it while it builds: in a worker thread, the graph grows while the caller embeds the next
 * batch. Labels are the order of arrival: 0, 1, 2, ... Call {@link VectorIndexBuilder.finish}
 * or, on any failure of the caller's own, {@link VectorIndexBuilder.abort}.
 */
export class VectorIndexBuilder {
  readonly #dimensions: number;
  readonly #options: Required<VectorIndexOptions>;
  readonly #worker: Promise<GraphWorker> | null;
  readonly #inline: hnswlib.HierarchicalNSW | null;
  #count = 0;
  #closed = false;

  private constructor(dimensions: number, capacity: number, options: Required<VectorIndexOptions>, worker: boolean) {
    this.#dimensions = dimensions;
    this.#options = options;
    const { m, efConstruction, randomSeed } = options;
    if (worker) {
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
    } else {
      this.#worker = null;
      this.#inline = new hnswlib.HierarchicalNSW("cosine", dimensions);
      this.#inline.initIndex(Math.max(1, capacity), m, efConstruction, randomSeed);
    }
  }

  /**
   * Starts a build of `capacity` vectors (more are allowed; the graph grows).
   * @throws LookupKnowledgeError `INVALID_OPTION` for an HNSW option out of range.
   */
  static start(
    dimensions: number,
    capacity: number,
    options: VectorIndexOptions = {},
    build: VectorBuildOptions = {},
  ): VectorIndexBuilder {
    if (!Number.isInteger(dimensions) || dimensions < 1)
      throw misuse(`dimensions must be an integer >= 1, got ${dimensions}`);
    return new VectorIndexBuilder(
      dimensions,
      capacity,
      resolveVectorIndexOptions(options),
      useWorker(build.thread, capacity),
    );
  }

  /** Vectors added so far. */
  get count(): number {
    return this.#count;
  }

  /**
   * Adds `vectors.length / dimensions` vectors (each checked: finite, not all zero). In a worker
   * build the array's buffer is transferred to the worker and detached here.
   * @throws LookupKnowledgeError `INVALID_OPTION` for a malformed vector; nothing of the batch is added then.
   */
  async add(vectors: Float32Array): Promise<void> {
    if (this.#closed) throw misuse("add after finish or abort");
    const count = checkRows(vectors, this.#dimensions);
    if (this.#inline !== null) {
      const needed = this.#count + count;
      if (needed > this.#inline.getMaxElements())
        this.#inline.resizeIndex(Math.max(needed, Math.ceil(this.#inline.getMaxElements() * 1.25)));
      insertInline(this.#inline, vectors, this.#dimensions, this.#count);
    } else {
      (await this.#worker!).add(vectors);
    }
    this.#count += count;
  }

  /**
   * The finished index; labels are chunk numbers, `domains[i]` the domain of chunk `i`.
   * @throws LookupKnowledgeError `INVALID_OPTION` when `domains` does not have one entry per vector; the worker's failure (see `hnsw-worker.ts`).
   */
  async finish(domains: readonly (string | undefined)[]): Promise<VectorIndex> {
    if (this.#closed) throw misuse("finish after finish or abort");
    this.#closed = true;
    if (domains.length !== this.#count) {
      await this.abort();
      throw misuse(`${domains.length} domains for ${this.#count} vectors`);
    }
    let index = this.#inline;
    if (index === null) {
      const graph = await this.#worker!;
      try {
        index = await graph.finish(this.#dimensions);
      } finally {
        await graph.dispose();
      }
    }
    const chunkOfLabel = Int32Array.from({ length: this.#count }, (_, i) => i);
    return VectorIndex.fromParts(
      { index, version: 0, writing: 0 },
      0,
      chunkOfLabel,
      domains,
      this.#dimensions,
      this.#options.efSearch,
    );
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

  /** @internal For {@link VectorIndexBuilder}; not part of the interface. */
  static fromParts(
    graph: SharedGraph,
    version: number,
    chunkOfLabel: Int32Array,
    domains: readonly (string | undefined)[],
    dimensions: number,
    efSearch: number,
  ): VectorIndex {
    return new VectorIndex(graph, version, chunkOfLabel, domains, dimensions, efSearch);
  }

  /**
   * Builds the graph over one vector per chunk: `vectors` holds `domains.length × dimensions`
   * values, row `i` the vector of chunk `i` (checked here: finite, not all zero), and
   * `domains[i]` is the domain of chunk `i`. In a worker (see {@link VectorBuildOptions.thread})
   * the buffer of `vectors` is transferred to it and detached; pass a copy to keep using it.
   * @throws LookupKnowledgeError `INVALID_OPTION` for malformed input; the worker's failure.
   */
  static build(
    vectors: Float32Array,
    dimensions: number,
    domains: readonly (string | undefined)[],
    options?: VectorIndexOptions,
    build?: VectorBuildOptions,
  ): Promise<VectorIndex>;
  /**
   * The former synchronous build over plain arrays, on the calling thread (it blocks the event
   * loop for the whole build).
   * @deprecated Build from one `Float32Array` instead, which runs off the main thread.
   */
  static build(
    vectors: readonly number[][],
    domains: readonly (string | undefined)[],
    options?: VectorIndexOptions,
  ): VectorIndex;
  static build(
    vectors: Float32Array | readonly number[][],
    second: number | readonly (string | undefined)[],
    third?: readonly (string | undefined)[] | VectorIndexOptions,
    fourth?: VectorIndexOptions,
    fifth?: VectorBuildOptions,
  ): Promise<VectorIndex> | VectorIndex {
    if (vectors instanceof Float32Array) {
      const dimensions = second as number;
      const domains = third as readonly (string | undefined)[];
      return (async () => {
        const builder = VectorIndexBuilder.start(dimensions, vectors.length / dimensions, fourth, fifth);
        try {
          await builder.add(vectors);
        } catch (error) {
          await builder.abort();
          throw error;
        }
        return builder.finish(domains);
      })();
    }
    const o = resolveVectorIndexOptions(third as VectorIndexOptions | undefined);
    const dimensions = vectors[0]?.length ?? 1;
    const index = new hnswlib.HierarchicalNSW("cosine", dimensions);
    index.initIndex(Math.max(1, vectors.length), o.m, o.efConstruction, o.randomSeed);
    vectors.forEach((vector, id) => index.addPoint(vector, id));
    return new VectorIndex(
      { index, version: 0, writing: 0 },
      0,
      Int32Array.from({ length: vectors.length }, (_, i) => i),
      second as readonly (string | undefined)[],
      dimensions,
      o.efSearch,
    );
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
      { index, version: 0, writing: 0 },
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
    const labelOf = new Int32Array(this.#domains.length).fill(-1);
    this.#chunkOfLabel.forEach((chunk, label) => {
      if (chunk >= 0 && chunk < labelOf.length) labelOf[chunk] = label;
    });
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
   * yields `k` admitted chunks (see {@link OVERSAMPLE_FACTOR}); otherwise the filter runs inside
   * the graph search, so that it never starves `k`.
   */
  search(vector: number[], k: number, filter: string | ChunkFilter | null = null): VectorHit[] {
    const live = this.#live;
    if (live === 0 || k < 1) return [];
    const map = this.#chunkOfLabel;
    if (filter !== null && typeof filter === "object") {
      if (filter.size === 0) return [];
      if (filter.size <= EXACT_SCAN_MAX_CHUNKS && this.#graph.version === this.#version)
        return this.#scan(vector, k, filter);
    }
    const n = Math.min(k, live);
    const index = this.#graph.index;
    if (filter !== null && typeof filter === "object") {
      const oversampled = this.#oversampled(vector, n, filter);
      if (oversampled !== null) return oversampled;
    }
    index.setEf(Math.max(this.#efSearch, n));
    const domains = this.#domains;
    // A superseded view shares a graph that has labels it does not know.
    const stale = this.#graph.version !== this.#version;
    const accepts =
      filter === null
        ? stale
          ? (label: number) => label < map.length && map[label] >= 0
          : undefined
        : typeof filter === "string"
          ? (label: number) => label < map.length && map[label] >= 0 && domains[map[label]] === filter
          : (label: number) => label < map.length && map[label] >= 0 && filter.admitted[map[label]] === 1;
    const { neighbors, distances } = index.searchKnn(vector, n, accepts);
    const hits: VectorHit[] = [];
    neighbors.forEach((label, i) => {
      const chunk = label < map.length ? map[label] : -1;
      if (chunk >= 0) hits.push({ id: chunk, similarity: 1 - distances[i] });
    });
    return hits;
  }

  /**
   * The oversampled plan (see {@link OVERSAMPLE_FACTOR}): the admitted chunks among an unfiltered
   * search's nearest; null when the filter is too selective for it or fewer than `n` were admitted.
   */
  #oversampled(vector: number[], n: number, filter: ChunkFilter): VectorHit[] | null {
    const share = filter.size / this.#live;
    const depth = Math.ceil((OVERSAMPLE_FACTOR * n) / share);
    if (share > OVERSAMPLE_MAX_SHARE || depth > OVERSAMPLE_MAX_DEPTH || depth > this.#live || filter.size < n)
      return null;
    const index = this.#graph.index;
    index.setEf(Math.max(this.#efSearch, depth));
    const map = this.#chunkOfLabel;
    const { neighbors, distances } = index.searchKnn(vector, depth);
    const hits: VectorHit[] = [];
    for (let i = 0; i < neighbors.length && hits.length < n; i++) {
      const label = neighbors[i];
      const chunk = label < map.length ? map[label] : -1;
      if (chunk >= 0 && filter.admitted[chunk] === 1) hits.push({ id: chunk, similarity: 1 - distances[i] });
    }
    return hits.length < n ? null : hits;
  }

  /** The exact plan: every admitted chunk's vector scored against the query. */
  #scan(vector: number[], k: number, filter: ChunkFilter): VectorHit[] {
    const graph = this.#graph;
    graph.vectors ??= new LabelVectorCache(this.dimensions, (label) => graph.index.getPoint(label));
    if (this.#labelOfChunk === null) {
      const labelOf = new Int32Array(this.#domains.length).fill(-1);
      this.#chunkOfLabel.forEach((chunk, label) => {
        if (chunk >= 0 && chunk < labelOf.length) labelOf[chunk] = label;
      });
      this.#labelOfChunk = labelOf;
    }
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
    const { chunkOfLabel, deleted, additions, addedChunks } = this.#plan(change);
    const firstLabel = this.#chunkOfLabel.length;
    const graph = this.#graph;
    if (!useWorker(build.thread, addedChunks.length)) {
      if (graph.writing > 0)
        throw misuse("cannot update in place while the index is being saved or copied; await that first");
      graph.version++;
      for (const label of deleted) graph.index.markDelete(label);
      const needed = firstLabel + addedChunks.length;
      if (needed > graph.index.getMaxElements())
        graph.index.resizeIndex(Math.max(needed, Math.ceil(graph.index.getMaxElements() * 1.25)));
      insertInline(graph.index, additions, this.dimensions, firstLabel);
      return new VectorIndex(graph, graph.version, chunkOfLabel, change.domains, this.dimensions, this.#efSearch);
    }
    const worker = await GraphWorker.create();
    try {
      await whileWriting(graph, () => graph.index.writeIndex(worker.inputFile));
      worker.run({
        dimensions: this.dimensions,
        capacity: 0,
        m: 0,
        efConstruction: 0,
        randomSeed: 0,
        firstLabel,
        extend: true,
        deleteLabels: deleted,
      });
      if (additions.length > 0) worker.add(additions);
      const index = await worker.finish(this.dimensions);
      return new VectorIndex(
        { index, version: 0, writing: 0 },
        0,
        chunkOfLabel,
        change.domains,
        this.dimensions,
        this.#efSearch,
      );
    } finally {
      await worker.dispose();
    }
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

  /** The checked label map after `change`, the labels it deletes and the vectors it adds. */
  #plan(change: VectorIndexUpdate): {
    chunkOfLabel: Int32Array;
    deleted: Int32Array;
    additions: Float32Array;
    addedChunks: readonly number[];
  } {
    const previous = this.#live;
    const { renumber, domains } = change;
    const next = domains.length;
    if (!(renumber instanceof Int32Array) || renumber.length !== previous)
      throw misuse(`renumber must be an Int32Array with one entry per previous chunk (${previous})`);
    const covered = new Uint8Array(next);
    const claim = (chunk: number, what: string) => {
      if (!Number.isInteger(chunk) || chunk < 0 || chunk >= next)
        throw misuse(`${what} is ${chunk}, outside the new chunks 0 to ${next - 1}`);
      if (covered[chunk] === 1) throw misuse(`new chunk ${chunk} is given twice`);
      covered[chunk] = 1;
    };
    let removed = 0;
    renumber.forEach((to, from) => (to === -1 ? removed++ : claim(to, `renumber[${from}]`)));
    if (change.remove !== undefined) {
      const listed = new Set(change.remove);
      if (listed.size !== change.remove.length) throw misuse("remove lists a chunk twice");
      for (const chunk of listed)
        if (renumber[chunk] !== -1)
          throw misuse(`remove lists chunk ${chunk}, which renumber keeps (or which does not exist)`);
      if (listed.size !== removed) throw misuse(`renumber removes ${removed} chunks but remove lists ${listed.size}`);
    }
    const addedChunks = change.add?.chunkIds ?? [];
    const additions = change.add?.vectors ?? new Float32Array(0);
    addedChunks.forEach((chunk, i) => claim(chunk, `add.chunkIds[${i}]`));
    if (checkRows(additions, this.dimensions) !== addedChunks.length) {
      throw misuse(
        `add.vectors holds ${additions.length / this.dimensions} vectors for ${addedChunks.length} chunk ids`,
      );
    }
    const missing = covered.indexOf(0);
    if (missing !== -1) throw misuse(`new chunk ${missing} has neither a renumbered nor an added vector`);

    const chunkOfLabel = new Int32Array(this.#chunkOfLabel.length + addedChunks.length);
    const deleted: number[] = [];
    this.#chunkOfLabel.forEach((chunk, label) => {
      const to = chunk < 0 ? -1 : renumber[chunk];
      if (chunk >= 0 && to === -1) deleted.push(label);
      chunkOfLabel[label] = to;
    });
    addedChunks.forEach((chunk, i) => (chunkOfLabel[this.#chunkOfLabel.length + i] = chunk));
    return { chunkOfLabel, deleted: Int32Array.from(deleted), additions, addedChunks };
  }
}

/** Vectors (live and deleted) in an hnswlib file, read as hnswlib reads it: a cut file fails or falls short. */
export async function storedVectorCount(file: string, dimensions: number): Promise<number> {
  const index = new hnswlib.HierarchicalNSW("cosine", dimensions);
  await index.readIndex(file);
  return index.getCurrentCount();
}
