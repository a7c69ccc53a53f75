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

/**
 * The oversampled plan of a filtered dense search, for a filter admitting a share of at most
 * {@link OVERSAMPLE_MAX_SHARE} of the chunks: an unfiltered graph search for the nearest
 * `OVERSAMPLE_FACTOR * k / share` chunks (no JavaScript callback per visited node), then the
 * admitted ones among them; when fewer than `k` are admitted, the filtered graph search runs.
 * At most {@link OVERSAMPLE_MAX_DEPTH} deep. `npm run bench -- --only filter` at 100k chunks with
 * 10% admitted: L1 p50 1.5 ms and recall@10 0.96, where the filtered graph search alone takes
 * 3.7 ms (unfiltered recall@10: 0.91); figures in docs/access-control.md.
 */
export const OVERSAMPLE_FACTOR = 3;
export const OVERSAMPLE_MAX_SHARE = 0.25;
export const OVERSAMPLE_MAX_DEPTH = 1000;

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

  /** The block holding `label`'s vector (filled in on first use) and the vector's offset in it. */
  #locate(label: number): { block: Float32Array; offset: number } {
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
    return { block, offset: at * d };
  }

  /** The stored (unit-length) vector of `label`. */
  vector(label: number): Float32Array {
    const { block, offset } = this.#locate(label);
    return block.subarray(offset, offset + this.dimensions);
  }

  /** The dot product of `query` (length `dimensions`) with `label`'s stored vector, read in place. */
  dot(label: number, query: Float32Array): number {
    const { block, offset } = this.#locate(label);
    let dot = 0;
    for (let j = 0; j < query.length; j++) dot += query[j] * block[offset + j];
    return dot;
  }
}

/** A hit of the exact plan: a chunk number and its cosine similarity. */
export interface ExactHit {
  id: number;
  similarity: number;
}

/** True when a hit (similarity `s`, chunk `id`) ranks before another: higher similarity, then smaller chunk number. */
const ranksBefore = (s: number, id: number, otherS: number, otherId: number): boolean =>
  s > otherS || (s === otherS && id < otherId);

/**
 * The `k` chunks of `ids` nearest to `query` by cosine similarity, best first (ties by smaller
 * chunk number). `labelOf` maps a chunk to its label (negative: no vector); vectors are unit length.
 */
export function exactNearest(
  query: readonly number[],
  k: number,
  ids: ArrayLike<number>,
  labelOf: Int32Array,
  cache: LabelVectorCache,
): ExactHit[] {
  const d = cache.dimensions;
  let norm = 0;
  for (let j = 0; j < d; j++) norm += query[j] * query[j];
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  const q = new Float32Array(d);
  for (let j = 0; j < d; j++) q[j] = query[j] * scale;
  // The best `size` hits so far, best first: no sort of every admitted chunk.
  const keep = Math.max(0, Math.min(k, ids.length));
  const bestIds = new Float64Array(keep);
  const bestSims = new Float64Array(keep);
  let size = 0;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    const label = id < labelOf.length ? labelOf[id] : -1;
    if (label < 0) continue;
    const similarity = cache.dot(label, q);
    if (size === keep && (keep === 0 || !ranksBefore(similarity, id, bestSims[keep - 1], bestIds[keep - 1]))) continue;
    let at = size === keep ? keep - 1 : size++;
    while (at > 0 && ranksBefore(similarity, id, bestSims[at - 1], bestIds[at - 1])) {
      bestSims[at] = bestSims[at - 1];
      bestIds[at] = bestIds[at - 1];
      at--;
    }
    bestSims[at] = similarity;
    bestIds[at] = id;
  }
  const hits: ExactHit[] = [];
  for (let i = 0; i < size; i++) hits.push({ id: bestIds[i], similarity: bestSims[i] });
  return hits;
}
