import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { AccessControl } from "../../access/chunk-access.js";
import { admits } from "../../access/chunk-filter.js";
import { errorMessage } from "../../errors.js";
import { clock, elapsedMs } from "../elapsed.js";
import type { L1Searcher } from "../../l1/l1-search.js";
import type { LookupTimings } from "../../types.js";
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
  /** The knowledge base's access labels: the lookup's scope and domain filter become one chunk filter. @default null (the domain filters by name) */
  control?: AccessControl | null;
}

/** The node's time split at the moment the query vector was ready (none: all of it is search). */
function l1Timings(started: number, embeddedAt: number | null): Pick<LookupTimings, "embedMs" | "l1Ms"> {
  const ended = clock();
  return embeddedAt === null
    ? { embedMs: 0, l1Ms: elapsedMs(started, ended) }
    : { embedMs: elapsedMs(started, embeddedAt), l1Ms: elapsedMs(embeddedAt, ended) };
}

/**
 * L1: dense search among the chunks the lookup's scope may read, with the domain filter chosen
 * after L0, both applied inside the search (an exact scan when they admit few chunks).
 * Records `ok`, `empty`, `error`, `disabled` or `unavailable`; an error (a throw, a bad vector,
 * a timeout) is kept, not thrown, so that the graph can fall back to L0. Only a cancelled run
 * (the caller's signal aborted) propagates. Records the query embedding as `timings.embedMs` and
 * the rest of the node as `timings.l1Ms` (split where the searcher calls `onQueryEmbedded`).
 */
export function createL1SearchNode({ l1, enabled, k, minScore, timeoutMs, control = null }: L1SearchNodeOptions) {
  return async function l1Search(
    state: RetrievalStateType,
    config?: LangGraphRunnableConfig,
  ): Promise<RetrievalStateUpdate> {
    const started = clock();
    if (!enabled) return { l1Status: "disabled", timings: l1Timings(started, null) };
    if (l1 === null) return { l1Status: "unavailable", timings: l1Timings(started, null) };
    const signal = config?.signal;
    let embeddedAt: number | null = null;
    const onQueryEmbedded = () => {
      embeddedAt ??= clock();
    };
    try {
      const filter = control?.filter(state.scope, state.domainFilter) ?? null;
      const rowKeys = control?.rowKeysFor(state.scope) ?? null;
      const found = await l1.search(state.query, {
        domain: state.domainFilter,
        filter,
        rowKeys,
        k: Math.max(k, state.limit),
        minScore,
        timeoutMs,
        signal,
        onQueryEmbedded,
      });
      // A searcher that ignored the filter still never hands a hidden chunk on.
      const candidates = filter === null ? found : found.filter((candidate) => admits(filter, candidate.id));
      return {
        l1Status: candidates.length > 0 ? "ok" : "empty",
        l1Candidates: candidates,
        timings: l1Timings(started, embeddedAt),
      };
    } catch (error) {
      if (signal?.aborted) throw error;
      return { l1Status: "error", l1Error: errorMessage(error), timings: l1Timings(started, embeddedAt) };
    }
  };
}
