/**
 * The exact plan of a filtered dense search: when a filter admits few chunks, scoring each of
 * them is cheaper than walking the HNSW graph with a JavaScript callback per visited node (which
 * keeps walking until it has found `k` admitted ones), and it finds the true nearest neighbours.
 */

/**
 * Largest admitted set scanned exactly; larger sets are searched in the graph with the filter
 * inside. Measured at 100k chunks of 256 dimensions (`npm run bench -- --only filter`,
 * `bench/results/filtered-lookups.json`, p50 of the raw search): exact 3.3 ms against the
 * filtered graph's 4.3 ms at 4,000 admitted chunks, 4.8 ms against 3.1 ms at 6,000; the two
 * cross near 5,000.
 */
export const EXACT_SCAN_MAX_CHUNKS = 5000;

/** Labels per block of the vector cache. */
const BLOCK = 1024;

/**
 * The graph's vectors copied into JavaScript memory as exact scans first need them, block by
 * block: hnswlib hands one vector out per native call (about 17 µs), a scan reads thousands.
 * Keyed by label, which a graph never reuses, so an in-place update leaves it valid.
 */
export class LabelVectorCache {
  readonly #blocks: (Float32Array | undefined)[] = [];
  readonly #filled: (Uint8Array | undefined)[] = [];

  constructor(
    readonly dimensions: number,
    readonly read: (label: number) => ArrayLike<number>,
  ) {}

  /** The stored (unit-length) vector of `label`. */
  vector(label: number): Float32Array {
    const b = Math.floor(label / BLOCK);
    const at = label - b * BLOCK;
    const d = this.dimensions;
    let block = this.#blocks[b];
    let filled = this.#filled[b];
    if (block === undefined || filled === undefined) {
      this.#blocks[b] = block = new Float32Array(BLOCK * d);
      this.#filled[b] = filled = new Uint8Array(BLOCK);
    }
    if (filled[at] === 0) {
      block.set(this.read(label), at * d);
      filled[at] = 1;
    }
    return block.subarray(at * d, (at + 1) * d);
  }
}

/** A hit of the exact plan: a chunk number and its cosine similarity. */
export interface ExactHit {
  id: number;
  similarity: number;
}

/**
 * The `k` chunks of `ids` nearest to `query` by cosine similarity, best first (ties by smaller
 * chunk number). `labelOf` maps a chunk to its label (negative: no vector); vectors are unit length.
 */
export function exactNearest(query: readonly number[], k: number, ids: ArrayLike<number>, labelOf: Int32Array, cache: LabelVectorCache): ExactHit[] {
  const d = cache.dimensions;
  let norm = 0;
  for (let j = 0; j < d; j++) norm += query[j] * query[j];
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  const q = new Float32Array(d);
  for (let j = 0; j < d; j++) q[j] = query[j] * scale;
  const hits: ExactHit[] = [];
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    const label = id < labelOf.length ? labelOf[id] : -1;
    if (label < 0) continue;
    const v = cache.vector(label);
    let dot = 0;
    for (let j = 0; j < d; j++) dot += q[j] * v[j];
    hits.push({ id, similarity: dot });
  }
  hits.sort((a, b) => b.similarity - a.similarity || a.id - b.id);
  return hits.slice(0, k);
}
