import type hnswlib from "hnswlib-node";
import type { LabelVectorCache } from "./exact-search.js";
import { WORKER_MIN_VECTORS, type VectorBuildThread } from "./vector-index-options.js";

/** A graph read from hnswlib's file, not yet given its labels and domains. */
export interface LoadedGraph {
  readonly index: hnswlib.HierarchicalNSW;
  readonly dimensions: number;
}

/** The native graph, shared by the versions of an index updated in place. */
export interface SharedGraph {
  index: hnswlib.HierarchicalNSW;
  /** Vectors copied out for exact scans of small filtered sets, made at the first one. */
  vectors?: LabelVectorCache;
  /** Bumped by every in-place update; a view made at an older version is stale. */
  version: number;
  /** Asynchronous writes of the graph in flight, which an in-place update must not race. */
  writing: number;
}

/** A graph of its own, at version 0, with no write in flight. */
export function sharedGraph(index: hnswlib.HierarchicalNSW): SharedGraph {
  return { index, version: 0, writing: 0 };
}

/** Runs an asynchronous write of the shared graph, counted so that no in-place update races it. */
export async function whileWriting<T>(graph: SharedGraph, write: () => Promise<T>): Promise<T> {
  graph.writing++;
  try {
    return await write();
  } finally {
    graph.writing--;
  }
}

/** Whether a build or update of `vectors` additions runs in a worker thread. */
export function useWorker(thread: VectorBuildThread | undefined, vectors: number): boolean {
  return thread === "worker" || ((thread ?? "auto") === "auto" && vectors >= WORKER_MIN_VECTORS);
}

/**
 * Inserts the rows of `vectors` under consecutive labels from `firstLabel`, on this thread,
 * growing the graph by at least a quarter when it is full.
 */
export function insertInline(
  index: hnswlib.HierarchicalNSW,
  vectors: Float32Array,
  dimensions: number,
  firstLabel: number,
): void {
  const count = vectors.length / dimensions;
  const needed = firstLabel + count;
  if (needed > index.getMaxElements()) index.resizeIndex(Math.max(needed, Math.ceil(index.getMaxElements() * 1.25)));
  const point = new Array<number>(dimensions);
  for (let i = 0; i < count; i++) {
    for (let c = 0; c < dimensions; c++) point[c] = vectors[i * dimensions + c];
    index.addPoint(point, firstLabel + i);
  }
}
