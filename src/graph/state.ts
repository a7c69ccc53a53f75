import { Annotation } from "@langchain/langgraph";
import { randomUUID } from "node:crypto";
import type { AppliedScope } from "../access/access-scope.js";
import { emptyHints } from "../l0/hints.js";
import { NO_RUN_IDENTITY, type RunIdentity } from "../trace/run-identity.js";
import type { LayeredEvidence } from "../ranking/evidence.js";
import type { Candidate, FallbackReason, L0Hints, L1Status, LookupResult, LookupTimings } from "../types.js";

const last = <T>(initial: () => T) => Annotation<T>({ reducer: (_, next) => next, default: initial });

/** State of the retrieval subgraph; each node returns only the keys it changes. */
export const RetrievalState = Annotation.Root({
  /** The user's query. */
  query: Annotation<string>,
  /** A domain the caller forced, or null. */
  domain: last<string | null>(() => null),
  /** Evidence blocks wanted. */
  limit: last<number>(() => 5),
  invocationId: last<string>(() => randomUUID()),
  /** Epoch milliseconds when the lookup started. */
  startedAt: last<number>(() => Date.now()),
  /** `performance.now()` when the run started: where `timings.totalMs` counts from. */
  runStartedAt: last<number>(() => performance.now()),
  /** The ids of the run the lookup belongs to (tool call, LangChain run, thread), for the trace; set by the caller of the graph. */
  runIdentity: last<RunIdentity>(() => NO_RUN_IDENTITY),
  /** Durations of the stages run so far; each node adds its own. */
  timings: Annotation<Partial<LookupTimings>>({ reducer: (done, next) => ({ ...done, ...next }), default: () => ({}) }),
  /**
   * The access scope the lookup runs under, set by the first node from the trusted `access`
   * option and the run's config (any value in the input is overwritten); null: unscoped.
   */
  scope: last<AppliedScope | null>(() => null),
  hints: last<L0Hints>(emptyHints),
  l0Candidates: last<Candidate[]>(() => []),
  domainFilter: last<string | null>(() => null),
  l1Status: last<L1Status | null>(() => null),
  l1Candidates: last<Candidate[]>(() => []),
  l1Error: last<string | null>(() => null),
  fallbackReason: last<FallbackReason>(() => null),
  evidence: last<LayeredEvidence[]>(() => []),
  /** The finished lookup, set by the final node. */
  result: last<LookupResult | null>(() => null),
});

/** The retrieval graph's state as its nodes and a parent graph read it. */
export type RetrievalStateType = typeof RetrievalState.State;
export type RetrievalStateUpdate = typeof RetrievalState.Update;
