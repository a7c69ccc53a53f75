import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { errorMessage } from "../../errors.js";
import { clock, elapsedMs } from "../elapsed.js";
import type { L1Searcher } from "../../l1/l1-search.js";
import type { RetrievalStateType, RetrievalStateUpdate } from "../state.js";

/** Collaborators and settings of the L1 node. */
export interface L1SearchNodeOptions {
  /** The dense layer, or null when the knowledge base has none (built with `embeddings: null`). */
  l1: L1Searcher | null;
  /** False turns L1 off by configuration. */
  enabled: boolean;
  /** Neighbours to fetch (raised to the lookup's limit when smaller). */
  k: number;
  /** Minimum cosine similarity of a hit. */
  minScore: number;
  /** Milliseconds the dense search may take before it counts as failed; `0` waits forever. */
  timeoutMs: number;
}

/**
 * L1: dense search with the domain filter chosen after L0, applied inside the HNSW search.
 * Records `ok`, `empty`, `error`, `disabled` or `unavailable`; an error (a throw, a bad vector,
 * a timeout) is kept, not thrown, so that the graph can fall back to L0. Only a cancelled run
 * (the caller's signal aborted) propagates. Records its duration, query embedding included, as
 * `timings.l1Ms`.
 */
export function createL1SearchNode({ l1, enabled, k, minScore, timeoutMs }: L1SearchNodeOptions) {
  return async function l1Search(state: RetrievalStateType, config?: LangGraphRunnableConfig): Promise<RetrievalStateUpdate> {
    const started = clock();
    if (!enabled) return { l1Status: "disabled", timings: { l1Ms: elapsedMs(started) } };
    if (l1 === null) return { l1Status: "unavailable", timings: { l1Ms: elapsedMs(started) } };
    const signal = config?.signal;
    try {
      const candidates = await l1.search(state.query, { domain: state.domainFilter, k: Math.max(k, state.limit), minScore, timeoutMs, signal });
      return { l1Status: candidates.length > 0 ? "ok" : "empty", l1Candidates: candidates, timings: { l1Ms: elapsedMs(started) } };
    } catch (error) {
      if (signal?.aborted) throw error;
      return { l1Status: "error", l1Error: errorMessage(error), timings: { l1Ms: elapsedMs(started) } };
    }
  };
}
