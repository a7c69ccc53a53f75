/**
 * The chunks one lookup may see (its access scope and domain together), decided before any
 * ranking. Both layers take it: L0 scores only these chunks and takes hints only from their
 * files; L1 searches only among them, and the size picks the plan (an exact scan of a small set,
 * the graph with the filter inside for a large one).
 */
export interface ChunkFilter {
  /** Names the filter (scope digest and domain) in caches. */
  readonly key: string;
  /** How many chunks it admits. */
  readonly size: number;
  /** 1 for each admitted chunk number, 0 otherwise; one entry per chunk. */
  readonly admitted: Uint8Array;
  /** The admitted chunk numbers, ascending. */
  readonly ids: Uint32Array;
}

/** True when `filter` admits chunk `id` (no filter admits every chunk). */
export function admits(filter: ChunkFilter | null | undefined, id: number): boolean {
  return filter === null || filter === undefined || filter.admitted[id] === 1;
}

/** A filter over `count` chunks that admits those `accept` returns true for. */
export function chunkFilterOf(key: string, count: number, accept: (id: number) => boolean): ChunkFilter {
  const admitted = new Uint8Array(count);
  let size = 0;
  for (let id = 0; id < count; id++) {
    if (accept(id)) {
      admitted[id] = 1;
      size++;
    }
  }
  const ids = new Uint32Array(size);
  for (let id = 0, at = 0; id < count; id++) if (admitted[id] === 1) ids[at++] = id;
  return { key, size, admitted, ids };
}
