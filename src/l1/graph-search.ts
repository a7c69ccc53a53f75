import type hnswlib from "hnswlib-node";
import type { ChunkFilter } from "../access/chunk-filter.js";
import { OVERSAMPLE_FACTOR, OVERSAMPLE_MAX_DEPTH, OVERSAMPLE_MAX_SHARE } from "./exact-search.js";

/** One dense hit: chunk number and cosine similarity (higher is better). */
export interface VectorHit {
  id: number;
  similarity: number;
}

/** Which labels a filtered graph search may return, by label; undefined for any label. */
export type LabelAccepts = ((label: number) => boolean) | undefined;

/**
 * The in-search filter over the label map `map`: live labels of the domain `filter`, or those of
 * the chunks a {@link ChunkFilter} admits, or, with no filter, any live label when the graph
 * holds labels this view does not know (`stale`: a superseded view shares its graph).
 */
export function labelAccepts(
  map: Int32Array,
  domains: readonly (string | undefined)[],
  filter: string | ChunkFilter | null,
  stale: boolean,
): LabelAccepts {
  if (filter === null) return stale ? (label) => label < map.length && map[label] >= 0 : undefined;
  if (typeof filter === "string")
    return (label) => label < map.length && map[label] >= 0 && domains[map[label]] === filter;
  return (label) => label < map.length && map[label] >= 0 && filter.admitted[map[label]] === 1;
}

/** The graph plan: the `n` nearest labels `accepts` lets through, as chunks, searched at `ef`. */
export function graphNearest(
  index: hnswlib.HierarchicalNSW,
  map: Int32Array,
  vector: number[],
  n: number,
  ef: number,
  accepts: LabelAccepts,
): VectorHit[] {
  index.setEf(Math.max(ef, n));
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
 * search's nearest, of `live` chunks; null when the filter is too selective for it or fewer than
 * `n` were admitted.
 */
export function oversampledNearest(
  index: hnswlib.HierarchicalNSW,
  map: Int32Array,
  live: number,
  vector: number[],
  n: number,
  ef: number,
  filter: ChunkFilter,
): VectorHit[] | null {
  const share = filter.size / live;
  const depth = Math.ceil((OVERSAMPLE_FACTOR * n) / share);
  if (share > OVERSAMPLE_MAX_SHARE || depth > OVERSAMPLE_MAX_DEPTH || depth > live || filter.size < n) return null;
  index.setEf(Math.max(ef, depth));
  const { neighbors, distances } = index.searchKnn(vector, depth);
  const hits: VectorHit[] = [];
  for (let i = 0; i < neighbors.length && hits.length < n; i++) {
    const label = neighbors[i];
    const chunk = label < map.length ? map[label] : -1;
    if (chunk >= 0 && filter.admitted[chunk] === 1) hits.push({ id: chunk, similarity: 1 - distances[i] });
  }
  return hits.length < n ? null : hits;
}
