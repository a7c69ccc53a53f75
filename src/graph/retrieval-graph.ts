import { END, START, StateGraph } from "@langchain/langgraph";
import { LookupKnowledgeError } from "../errors.js";
import { JsonlTraceSink, type TraceSink } from "../trace/jsonl-trace-sink.js";
import { createFinalizeNode } from "./nodes/finalize-node.js";
import { l0FallbackNode, mergeEvidenceNode } from "./nodes/evidence-nodes.js";
import { createL0HintsNode } from "./nodes/l0-hints-node.js";
import { createL1SearchNode } from "./nodes/l1-search-node.js";
import { DEFAULT_TRACE_PATH, TOOL_NAME, type RetrievalOptions } from "./options.js";
import { checkRetrievalSource, resolveRetrievalOptions } from "./resolve-options.js";
import { routeAfterL1 } from "./routes.js";
import { RetrievalState } from "./state.js";

/** The trace sink the options ask for: an injected one, a JSONL file, or none. */
export function resolveTraceSink(options: RetrievalOptions): TraceSink | null {
  if (options.traceSink) return options.traceSink;
  const path = options.tracePath === undefined ? DEFAULT_TRACE_PATH : options.tracePath;
  if (path !== null && (typeof path !== "string" || path.length === 0)) throw new LookupKnowledgeError("INVALID_OPTION", `option tracePath must be a file path or null (no trace), got ${String(path)}.`);
  return path === null ? null : new JsonlTraceSink(path);
}

/**
 * Builds the compiled retrieval subgraph: `l0_hints` → `l1_search` → (`merge_evidence` |
 * `l0_fallback`) → `finalize`. Add it to a parent graph as a node, or invoke it with
 * `{ query, domain?, limit? }` (checked with the tool's schema); the lookup's artifact is in the
 * output's `result`.
 * @throws LookupKnowledgeError `INVALID_OPTION` for a missing knowledge base or an option out of range.
 * @example
 * const kb = await KnowledgeBase.build({ corpusDir: "corpus" });
 * const graph = createRetrievalGraph({ knowledgeBase: kb, tracePath: null });
 * const { result } = await graph.invoke({ query: "How do I roll back a release?" });
 */
export function createRetrievalGraph(options: RetrievalOptions) {
  const settings = resolveRetrievalOptions(options);
  const kb = checkRetrievalSource(options.knowledgeBase);
  const traceSink = resolveTraceSink(options);
  return new StateGraph(RetrievalState)
    .addNode("l0_hints", createL0HintsNode({ l0: settings.l0.enabled ? kb.l0 : null, k: settings.l0.k, maxLimit: settings.maxLimit }))
    .addNode("l1_search", createL1SearchNode({ l1: kb.l1, ...settings.l1 }))
    .addNode("merge_evidence", mergeEvidenceNode)
    .addNode("l0_fallback", l0FallbackNode)
    .addNode(
      "finalize",
      createFinalizeNode({ l0Weight: settings.fusion.l0Weight, traceSink, toolName: TOOL_NAME, corpusFingerprint: kb.fingerprint, relevance: settings.relevance, evidence: settings.evidence }),
    )
    .addEdge(START, "l0_hints")
    .addEdge("l0_hints", "l1_search")
    .addConditionalEdges("l1_search", routeAfterL1, ["merge_evidence", "l0_fallback"])
    .addEdge("merge_evidence", "finalize")
    .addEdge("l0_fallback", "finalize")
    .addEdge("finalize", END)
    .compile({ name: "lookup_knowledge_retrieval" });
}

/** The compiled retrieval subgraph. */
export type RetrievalGraph = ReturnType<typeof createRetrievalGraph>;
