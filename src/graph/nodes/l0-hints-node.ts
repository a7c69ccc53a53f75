import { emptyHints } from "../../l0/hints.js";
import type { L0Searcher } from "../../l0/l0-search.js";
import { createInputCheck } from "../check-input.js";
import { clock, elapsedMs } from "../elapsed.js";
import { chooseDomainFilter } from "../routes.js";
import type { RetrievalStateType, RetrievalStateUpdate } from "../state.js";

/** Collaborators and settings of the L0 node. */
export interface L0HintsNodeOptions {
  /** The L0 layer, or null when L0 is switched off (the `L1 only` variant). */
  l0: L0Searcher | null;
  /** L0 candidates kept (raised to the lookup's limit when smaller). */
  k: number;
  /** Largest `limit` a lookup may ask for. */
  maxLimit: number;
}

/**
 * L0: hint data and keyword candidates. As the first node it checks the lookup's input (the
 * graph may be invoked directly). It decides the L1 domain filter from the hints but never
 * answers on its own: L1 runs next whatever L0 found. Records its duration as `timings.l0Ms`.
 * @throws LookupKnowledgeError `INVALID_INPUT` for a bad query, domain or limit.
 */
export function createL0HintsNode({ l0, k, maxLimit }: L0HintsNodeOptions) {
  const checkRetrievalInput = createInputCheck(maxLimit);
  return function l0Hints(state: RetrievalStateType): RetrievalStateUpdate {
    const started = clock();
    const input = checkRetrievalInput(state);
    // Normalised as chooseDomainFilter does, so that L0 and L1 filter by the same domain.
    const forced = input.domain?.trim().toLowerCase() || null;
    if (l0 === null) return { domainFilter: chooseDomainFilter(forced, emptyHints()), timings: { l0Ms: elapsedMs(started) } };
    const { hints, candidates } = l0.search(input.query, { domain: forced, limit: Math.max(k, input.limit) });
    return { hints, l0Candidates: candidates, domainFilter: chooseDomainFilter(forced, hints), timings: { l0Ms: elapsedMs(started) } };
  };
}
