import { emptyHints } from "../../l0/hints.js";
import type { L0Searcher } from "../../l0/l0-search.js";
import { chooseDomainFilter } from "../routes.js";
import type { RetrievalStateType, RetrievalStateUpdate } from "../state.js";

/** Collaborators and settings of the L0 node. */
export interface L0HintsNodeOptions {
  /** The L0 layer, or null when L0 is switched off (the `L1 only` variant). */
  l0: L0Searcher | null;
  /** L0 candidates kept (raised to the lookup's limit when smaller). */
  k: number;
}

/**
 * L0: hint data and keyword candidates. It decides the L1 domain filter from the hints but never
 * answers on its own: L1 runs next whatever L0 found.
 */
export function createL0HintsNode({ l0, k }: L0HintsNodeOptions) {
  return function l0Hints(state: RetrievalStateType): RetrievalStateUpdate {
    // Normalised as chooseDomainFilter does, so that L0 and L1 filter by the same domain.
    const forced = state.domain?.trim().toLowerCase() || null;
    if (l0 === null) return { domainFilter: chooseDomainFilter(forced, emptyHints()) };
    const { hints, candidates } = l0.search(state.query, { domain: forced, limit: Math.max(k, state.limit) });
    return { hints, l0Candidates: candidates, domainFilter: chooseDomainFilter(forced, hints) };
  };
}
