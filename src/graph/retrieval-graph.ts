import { recordGraphRunIdentity } from "./graph-run-identity.js";
import { createLookupRunner } from "./lookup-runner.js";
import { TOOL_NAME, type RetrievalGraphOptions } from "./options.js";

/** What {@link createRetrievalGraph} adds to the compiled graph. */
export interface RetrievalGraphExtras {
  /**
   * Closes the trace file the graph opened for `tracePath`, once the lookups already traced are
   * written; an injected `traceSink` is left to its owner. A lookup after `close` opens the file
   * again. Not calling it is harmless: the descriptor keeps no process alive and is closed when
   * the graph is garbage-collected.
   */
  close(): Promise<void>;
}

/**
 * Builds the compiled retrieval subgraph: `l0_hints` → `l1_search` → (`collect_evidence` |
 * `l0_fallback`) → `dedupe_and_trace`. Add it to a parent graph as a node, or invoke it with
 * `{ query, domain?, limit? }` (checked with the tool's schema); the lookup's artifact, with its
 * stage `timings`, is in the output's `result`. Options are resolved and the graph compiled
 * here, once; `close()` releases the trace file. Its trace lines carry `name` as `tool_name`.
 * @throws LookupKnowledgeError `INVALID_OPTION` for a missing knowledge base, a bad name or an option out of range.
 * @example
 * const kb = await KnowledgeBase.build({ corpusDir: "corpus" });
 * const graph = createRetrievalGraph({ knowledgeBase: kb, tracePath: null });
 * const { result } = await graph.invoke({ query: "How do I roll back a release?" });
 */
export function createRetrievalGraph(options: RetrievalGraphOptions) {
  const runner = createLookupRunner(options, TOOL_NAME);
  const extras: RetrievalGraphExtras = { close: () => runner.close() };
  return Object.assign(recordGraphRunIdentity(runner.graph), extras);
}

/** The compiled retrieval subgraph. */
export type RetrievalGraph = ReturnType<typeof createRetrievalGraph>;
