import { END, START, StateGraph, type LangGraphRunnableConfig } from "@langchain/langgraph";
import type { TraceSink } from "../trace/jsonl-trace-sink.js";
import { createDedupeAndTraceNode } from "./nodes/dedupe-and-trace-node.js";
import { l0FallbackNode, collectEvidenceNode } from "./nodes/collect-evidence-nodes.js";
import { createL0HintsNode } from "./nodes/l0-hints-node.js";
import { createL1SearchNode } from "./nodes/l1-search-node.js";
import { isFollowingSource, TOOL_NAME, type FollowingSource, type RetrievalSource } from "./options.js";
import { accessControlOf, type RetrievalSettings } from "./resolve-options.js";
import { traceLookupFailure } from "./trace-failure.js";
import { routeAfterL1 } from "./routes.js";
import { RetrievalState, type RetrievalStateType } from "./state.js";

/**
 * Wires the nodes for settings already resolved and checked (what the public factories share);
 * `toolName` is the trace's `tool_name`.
 */
export function buildRetrievalGraph(
  kb: RetrievalSource,
  settings: RetrievalSettings,
  traceSink: TraceSink | null,
  toolName: string = TOOL_NAME,
): GenerationGraph {
  return isFollowingSource(kb)
    ? buildFollowingGraph(kb, settings, traceSink, toolName)
    : buildGenerationGraph(kb, settings, traceSink, toolName);
}

/** The compiled retrieval graph of one generation (a followed base's graph has its shape). */
export type GenerationGraph = ReturnType<typeof buildGenerationGraph>;

/**
 * The graph of a followed knowledge base: one node pins the current generation, runs that
 * generation's graph (compiled once per generation) with the caller's config, and releases the
 * pin however the run ends, so that a lookup never mixes generations. Cast to the shape of a
 * generation's graph: callers use only its input, output and config.
 */
function buildFollowingGraph(
  source: FollowingSource,
  settings: RetrievalSettings,
  traceSink: TraceSink | null,
  toolName: string,
): GenerationGraph {
  const graphs = new WeakMap<RetrievalSource, GenerationGraph>();
  const graphOf = (generation: RetrievalSource): GenerationGraph => {
    let graph = graphs.get(generation);
    if (graph === undefined)
      graphs.set(generation, (graph = buildGenerationGraph(generation, settings, traceSink, toolName)));
    return graph;
  };
  const runPinned = async (state: RetrievalStateType, config?: LangGraphRunnableConfig) => {
    const pinned = source.pin();
    try {
      return await graphOf(pinned.source).invoke(state, config);
    } finally {
      pinned.release();
    }
  };
  const graph = new StateGraph(RetrievalState)
    .addNode("lookup_generation", runPinned)
    .addEdge(START, "lookup_generation")
    .addEdge("lookup_generation", END);
  return graph.compile({ name: "lookup_knowledge_retrieval" }) as unknown as GenerationGraph;
}

function buildGenerationGraph(
  kb: RetrievalSource,
  settings: RetrievalSettings,
  traceSink: TraceSink | null,
  toolName: string,
) {
  const control = accessControlOf(kb, settings);
  const { option, timeoutMs } = settings.access;
  const traceDenial =
    traceSink === null
      ? undefined
      : (state: RetrievalStateType, error: unknown) =>
          traceLookupFailure(traceSink, state, error, {
            toolName,
            corpusFingerprint: kb.fingerprint,
            indexGeneration: kb.generation ?? null,
          });
  return new StateGraph(RetrievalState)
    .addNode(
      "l0_hints",
      createL0HintsNode({
        l0: settings.l0.enabled ? kb.l0 : null,
        k: settings.l0.k,
        maxLimit: settings.maxLimit,
        control,
        access: option === null ? null : { option, timeoutMs },
        traceDenial,
      }),
    )
    .addNode("l1_search", createL1SearchNode({ l1: kb.l1, ...settings.l1, control }))
    .addNode("collect_evidence", collectEvidenceNode)
    .addNode("l0_fallback", l0FallbackNode)
    .addNode(
      "dedupe_and_trace",
      createDedupeAndTraceNode({
        l0Weight: settings.fusion.l0Weight,
        traceSink,
        toolName,
        corpusFingerprint: kb.fingerprint,
        indexGeneration: kb.generation ?? null,
        relevance: settings.relevance,
        evidence: settings.evidence,
      }),
    )
    .addEdge(START, "l0_hints")
    .addEdge("l0_hints", "l1_search")
    .addConditionalEdges("l1_search", routeAfterL1, ["collect_evidence", "l0_fallback"])
    .addEdge("collect_evidence", "dedupe_and_trace")
    .addEdge("l0_fallback", "dedupe_and_trace")
    .addEdge("dedupe_and_trace", END)
    .compile({ name: "lookup_knowledge_retrieval" });
}
