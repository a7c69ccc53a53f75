/** The latency figures ratios are computed from, per system id. */
export type P50P99 = Record<string, { p50: number; p99: number } | undefined>;

/** One system's latency relative to the framework floor's p50. */
export interface FloorRatio {
  id: string;
  p50ToFloor: number;
  p99ToFloor: number;
}

/** Every ratio the report prints for one size. */
export interface Ratios {
  /** The system the ratios divide by: the empty LangGraph of our node count. */
  floorId: string;
  floorP50: number;
  toFloor: FloorRatio[];
  /** tool p50 / (raw FlexSearch p50 + raw hnswlib p50). */
  toolToRawEngines: number;
  /** tool p50 / (floor p50 + raw FlexSearch p50 + raw hnswlib p50): what is left above "framework plus engines". */
  toolToFloorPlusEngines: number;
  /** tool p50 / LangChain EnsembleRetriever p50 (below 1: the tool is faster). */
  toolToEnsemble: number;
  /** EnsembleRetriever p50 / tool p50: how many times faster the tool is. */
  ensembleToTool: number;
}

/** Ids of the systems the ratios name. */
export const SYSTEM_IDS = {
  floor: "langgraph_floor",
  tool: "tool",
  rawFlexSearch: "raw_flexsearch",
  rawHnswlib: "raw_hnswlib",
  ensemble: "langchain_ensemble",
} as const;

/** a / b, NaN when either is missing or b is not positive. */
export function ratio(a: number | undefined, b: number | undefined): number {
  return a !== undefined && b !== undefined && b > 0 && Number.isFinite(a) && Number.isFinite(b) ? a / b : Number.NaN;
}

/** Ratios of every system to the floors, from measured p50/p99 (pure; NaN where a system is missing). */
export function computeRatios(latency: P50P99): Ratios {
  const floor = latency[SYSTEM_IDS.floor]?.p50;
  const tool = latency[SYSTEM_IDS.tool]?.p50;
  const flex = latency[SYSTEM_IDS.rawFlexSearch]?.p50;
  const hnsw = latency[SYSTEM_IDS.rawHnswlib]?.p50;
  const ensemble = latency[SYSTEM_IDS.ensemble]?.p50;
  const engines = flex !== undefined && hnsw !== undefined ? flex + hnsw : undefined;
  return {
    floorId: SYSTEM_IDS.floor,
    floorP50: floor ?? Number.NaN,
    toFloor: Object.entries(latency).flatMap(([id, figures]) =>
      figures ? [{ id, p50ToFloor: ratio(figures.p50, floor), p99ToFloor: ratio(figures.p99, floor) }] : [],
    ),
    toolToRawEngines: ratio(tool, engines),
    toolToFloorPlusEngines: ratio(tool, engines !== undefined && floor !== undefined ? engines + floor : undefined),
    toolToEnsemble: ratio(tool, ensemble),
    ensembleToTool: ratio(ensemble, tool),
  };
}
