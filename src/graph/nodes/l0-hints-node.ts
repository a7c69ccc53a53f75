import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { AccessOption, AppliedScope } from "../../access/access-scope.js";
import type { AccessControl } from "../../access/chunk-access.js";
import { admits } from "../../access/chunk-filter.js";
import { resolveScope } from "../../access/resolve-scope.js";
import { emptyHints } from "../../l0/hints.js";
import type { L0Searcher } from "../../l0/l0-search.js";
import { createInputCheck } from "../check-input.js";
import { clock, elapsedMs } from "../elapsed.js";
import { chooseDomainFilter } from "../routes.js";
import { markTraced } from "../traced-errors.js";
import type { RetrievalStateType, RetrievalStateUpdate } from "../state.js";
import { normalizeDomain } from "../../text/normalize-domain.js";

/** Collaborators and settings of the L0 node. */
export interface L0HintsNodeOptions {
  /** The L0 layer, or null when L0 is switched off (the `L1 only` variant). */
  l0: L0Searcher | null;
  /** L0 candidates kept (raised to the lookup's limit when smaller). */
  k: number;
  /** Largest `limit` a lookup may ask for. */
  maxLimit: number;
  /** The knowledge base's access labels; null when it has none (then only a domain filters, by name). @default null */
  control?: AccessControl | null;
  /** The trusted `access` option and how long its function may take; null: unscoped. @default null */
  access?: { option: AccessOption; timeoutMs: number } | null;
  /** Writes the error line of a lookup denied for want of a scope (before the error propagates). @default none */
  traceDenial?: (state: RetrievalStateType, error: unknown) => Promise<void>;
}

/**
 * L0: the lookup's scope, hint data and keyword candidates. As the first node it checks the
 * lookup's input (the graph may be invoked directly) and establishes the access scope from the
 * `access` option and the run's config (never from the input), failing closed. Only the chunks
 * the scope may read are scored or give hints, so the domain filter it decides from the hints
 * is decided on readable files only. It never answers on its own: L1 runs next whatever L0
 * found. Records its duration as `timings.l0Ms`.
 * @throws LookupKnowledgeError `INVALID_INPUT` for a bad query, domain or limit; `ACCESS_DENIED` when the scope cannot be established.
 */
export function createL0HintsNode({ l0, k, maxLimit, control = null, access = null, traceDenial }: L0HintsNodeOptions) {
  const checkRetrievalInput = createInputCheck(maxLimit);
  return async function l0Hints(
    state: RetrievalStateType,
    config?: LangGraphRunnableConfig,
  ): Promise<RetrievalStateUpdate> {
    const started = clock();
    const input = checkRetrievalInput(state);
    let scope: AppliedScope | null = null;
    if (access !== null) {
      try {
        scope = await resolveScope(access.option, config ?? {}, access.timeoutMs);
      } catch (error) {
        if (config?.signal?.aborted || traceDenial === undefined) throw error;
        await traceDenial(state, error);
        throw markTraced(error);
      }
    }
    // Normalised as chooseDomainFilter does, so that L0 and L1 filter by the same domain.
    const forced = normalizeDomain(input.domain);
    if (l0 === null)
      return { scope, domainFilter: chooseDomainFilter(forced, emptyHints()), timings: { l0Ms: elapsedMs(started) } };
    const filter = control?.filter(scope, forced) ?? null;
    const readable = scope === null ? null : (control?.filter(scope, null) ?? null);
    const { hints, candidates } = l0.search(input.query, {
      domain: forced,
      limit: Math.max(k, input.limit),
      filter,
      readable,
    });
    // A searcher that ignored the filter still never hands a hidden chunk on.
    const kept = filter === null ? candidates : candidates.filter((candidate) => admits(filter, candidate.id));
    return {
      scope,
      hints,
      l0Candidates: kept,
      domainFilter: chooseDomainFilter(forced, hints),
      timings: { l0Ms: elapsedMs(started) },
    };
  };
}
