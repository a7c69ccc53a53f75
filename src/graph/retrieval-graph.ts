import { END, START, StateGraph } from "@langchain/langgraph";
import { LookupKnowledgeError } from "../errors.js";
import { JsonlTraceSink, type TraceSink } from "../trace/jsonl-trace-sink.js";
import { DEFAULT_L0_WEIGHT } from "./evidence.js";
import { createFinalizeNode } from "./nodes/finalize-node.js";
import { l0FallbackNode, mergeEvidenceNode } from "./nodes/evidence-nodes.js";
import { createL0HintsNode } from "./nodes/l0-hints-node.js";
import { createL1SearchNode } from "./nodes/l1-search-node.js";
import { DEFAULT_TRACE_PATH, TOOL_NAME, type RetrievalOptions } from "./options.js";
import { RELEVANCE_THRESHOLDS } from "./relevance.js";
import { routeAfterL1 } from "./routes.js";
import { RetrievalState } from "./state.js";

function checkRange(name: string, value: number, min: number, max: number): number {
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new LookupKnowledgeError("INVALID_OPTION", `option ${name} must be a number from ${min} to ${max}, got ${value}.`);
  }
  return value;
}

/** The trace sink the options ask for: an injected one, a JSONL file, or none. */
export function resolveTraceSink(options: RetrievalOptions): TraceSink | null {
  if (options.traceSink) return options.traceSink;
  const path = options.tracePath === undefined ? DEFAULT_TRACE_PATH : options.tracePath;
  return path === null ? null : new JsonlTraceSink(path);
}

/**
 * Builds the compiled retrieval subgraph: `l0_hints` → `l1_search` → (`merge_evidence` |
 * `l0_fallback`) → `finalize`. Add it to a parent graph as a node, or invoke it with
 * `{ query, domain?, limit? }`; the lookup's artifact is in the output's `result`.
 * @example
 * const kb = await KnowledgeBase.build({ corpusDir: "corpus" });
 * const graph = createRetrievalGraph({ knowledgeBase: kb, tracePath: null });
 * const { result } = await graph.invoke({ query: "How do I roll back a release?" });
 */
export function createRetrievalGraph(options: RetrievalOptions) {
  const kb = options.knowledgeBase;
  const traceSink = resolveTraceSink(options);
  const l0Weight = checkRange("fusion.l0Weight", options.fusion?.l0Weight ?? DEFAULT_L0_WEIGHT, 0, 1);
  return new StateGraph(RetrievalState)
    .addNode("l0_hints", createL0HintsNode({ l0: options.l0?.enabled === false ? null : kb.l0, k: checkRange("l0.k", options.l0?.k ?? 20, 1, 10_000) }))
    .addNode(
      "l1_search",
      createL1SearchNode({
        l1: kb.l1,
        enabled: options.l1?.enabled ?? true,
        k: checkRange("l1.k", options.l1?.k ?? 20, 1, 10_000),
        minScore: checkRange("l1.minScore", options.l1?.minScore ?? 0.05, -1, 1),
      }),
    )
    .addNode("merge_evidence", mergeEvidenceNode)
    .addNode("l0_fallback", l0FallbackNode)
    .addNode("finalize", createFinalizeNode({ l0Weight, traceSink, toolName: TOOL_NAME, corpusFingerprint: kb.fingerprint, relevance: { ...RELEVANCE_THRESHOLDS, ...options.relevance } }))
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
