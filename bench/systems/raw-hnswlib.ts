import hnswlib from "hnswlib-node";
import type { BenchSystem, PreparedSystem } from "./bench-system.js";
import { timed } from "./bench-system.js";
import { RAW_LIMIT } from "./raw-flexsearch.js";

/** HNSW settings of the raw engine: those our index was built with. */
export interface RawHnswSettings {
  m: number;
  efConstruction: number;
  randomSeed: number;
  /** The library's documented search default (README: `hnsw.efSearch` 100); it is not saved in the index settings. */
  efSearch: number;
}

/**
 * hnswlib-node's `searchKnn`, cosine, over the same LSA vectors as ours, built by the bench with
 * our index's settings; the query vector is computed beforehand, so this times the engine alone.
 * An engine floor.
 */
export async function createRawHnswlib(
  vectors: readonly number[][],
  settings: RawHnswSettings,
): Promise<PreparedSystem> {
  const dimensions = vectors[0]?.length ?? 1;
  const { value: index, ms } = await timed(() => {
    const graph = new hnswlib.HierarchicalNSW("cosine", dimensions);
    graph.initIndex(Math.max(1, vectors.length), settings.m, settings.efConstruction, settings.randomSeed);
    vectors.forEach((vector, id) => graph.addPoint(vector, id));
    graph.setEf(settings.efSearch);
    return graph;
  });
  const system: BenchSystem = {
    id: "raw_hnswlib",
    label: "hnswlib searchKnn (raw)",
    role: "floor",
    run: (query) => index.searchKnn(query.vector, RAW_LIMIT),
  };
  return { system, setupMs: ms };
}
