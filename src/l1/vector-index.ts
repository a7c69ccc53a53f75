import hnswlib from "hnswlib-node";
import { LookupKnowledgeError } from "../errors.js";

/** Options of the HNSW graph. */
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

/** One dense hit: chunk number and cosine similarity (higher is better). */
export interface VectorHit {
  id: number;
  similarity: number;
}

/** HNSW settings used when the options leave them out. */
export const VECTOR_INDEX_DEFAULTS: Readonly<Required<VectorIndexOptions>> = { m: 16, efConstruction: 200, efSearch: 100, randomSeed: 100 };

/** Ranges hnswlib works with (it crashes natively on `m` below 2). */
const RANGES: Record<keyof VectorIndexOptions, [number, number]> = { m: [2, 512], efConstruction: [1, 100_000], efSearch: [1, 100_000], randomSeed: [0, 2 ** 31 - 1] };

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
      throw new LookupKnowledgeError("INVALID_OPTION", `option hnsw.${key} must be an integer from ${min} to ${max}, got ${String(value)}.`);
    }
    resolved[key] = value;
  }
  return resolved;
}

/**
 * hnswlib-node behind a narrow interface: cosine space, labels are chunk numbers, and a domain
 * filter runs inside the graph search so that it never starves `k`.
 */
export class VectorIndex {
  private constructor(
    private readonly index: hnswlib.HierarchicalNSW,
    /** Domain of each chunk number, for the in-search filter. */
    private readonly domains: readonly (string | undefined)[],
    readonly dimensions: number,
    private readonly efSearch: number,
  ) {}

  /**
   * Builds the graph over one vector per chunk (checked beforehand: see `check-vector.ts`);
   * `domains[i]` is the domain of chunk `i`.
   */
  static build(vectors: readonly number[][], domains: readonly (string | undefined)[], options: VectorIndexOptions = {}): VectorIndex {
    const o = resolveVectorIndexOptions(options);
    const dimensions = vectors[0]?.length ?? 1;
    const index = new hnswlib.HierarchicalNSW("cosine", dimensions);
    index.initIndex(Math.max(1, vectors.length), o.m, o.efConstruction, o.randomSeed);
    vectors.forEach((vector, id) => index.addPoint(vector, id));
    return new VectorIndex(index, domains, dimensions, o.efSearch);
  }

  /** Reads a graph written by {@link VectorIndex.save}. */
  static async load(file: string, dimensions: number, domains: readonly (string | undefined)[], options: VectorIndexOptions = {}): Promise<VectorIndex> {
    const index = new hnswlib.HierarchicalNSW("cosine", dimensions);
    await index.readIndex(file);
    return new VectorIndex(index, domains, dimensions, options.efSearch ?? VECTOR_INDEX_DEFAULTS.efSearch);
  }

  async save(file: string): Promise<void> {
    await this.index.writeIndex(file);
  }

  get size(): number {
    return this.index.getCurrentCount();
  }

  /** The `k` nearest chunks to `vector`, only among chunks of `domain` when given. */
  search(vector: number[], k: number, domain: string | null = null): VectorHit[] {
    const count = this.size;
    if (count === 0 || k < 1) return [];
    const n = Math.min(k, count);
    this.index.setEf(Math.max(this.efSearch, n));
    const filter = domain === null ? undefined : (label: number) => this.domains[label] === domain;
    const { neighbors, distances } = this.index.searchKnn(vector, n, filter);
    return neighbors.map((id, i) => ({ id, similarity: 1 - distances[i] }));
  }
}
