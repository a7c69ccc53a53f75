import { END, START, StateGraph, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { LookupKnowledgeError } from "../errors.js";
import { JsonlTraceSink, type TraceSink } from "../trace/jsonl-trace-sink.js";
import { createDedupeAndTraceNode } from "./nodes/dedupe-and-trace-node.js";
import { l0FallbackNode, collectEvidenceNode } from "./nodes/collect-evidence-nodes.js";
import { createL0HintsNode } from "./nodes/l0-hints-node.js";
import { createL1SearchNode } from "./nodes/l1-search-node.js";
import { resolveToolName } from "../tool/tool-name.js";
import {
  DEFAULT_TRACE_PATH,
  isFollowingSource,
  TOOL_NAME,
  type FollowingSource,
  type RetrievalGraphOptions,
  type RetrievalOptions,
  type RetrievalSource,
} from "./options.js";
import { recordGraphRunIdentity } from "./graph-run-identity.js";
import {
  accessControlOf,
  checkRetrievalSource,
  resolveRetrievalOptions,
  type RetrievalSettings,
} from "./resolve-options.js";
import { traceLookupFailure } from "./trace-failure.js";
import { routeAfterL1 } from "./routes.js";
import { RetrievalState, type RetrievalStateType } from "./state.js";

/** The trace sink the options ask for, and whether it was opened here (and so is closed here). */
export interface ResolvedTraceSink {
  /** An injected sink, a JSONL file sink for `tracePath`, or null (no trace). */
  sink: TraceSink | null;
  /** True for the sink made from `tracePath`; an injected sink belongs to the caller. */
  owned: boolean;
}

/** The trace sink the options ask for: an injected one, a JSONL file, or none. @throws LookupKnowledgeError `INVALID_OPTION` for a bad `tracePath`. */
export function resolveTraceSink(options: Pick<RetrievalOptions, "tracePath" | "traceSink">): ResolvedTraceSink {
  if (options.traceSink) return { sink: options.traceSink, owned: false };
  const path = options.tracePath === undefined ? DEFAULT_TRACE_PATH : options.tracePath;
  if (path !== null && (typeof path !== "string" || path.length === 0))
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `option tracePath must be a file path or null (no trace), got ${String(path)}.`,
    );
  return path === null ? { sink: null, owned: false } : { sink: new JsonlTraceSink(path), owned: true };
}

/** Closes `trace` when it was opened from `tracePath`; never rejects. */
export async function closeOwnedTraceSink(trace: ResolvedTraceSink): Promise<void> {
  if (!trace.owned) return;
  try {
    await trace.sink?.close?.();
  } catch {
    // Closing releases a descriptor; there is nothing a caller could do about a failure.
  }
}

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

/** The retrieval graph of one generation. */
type GenerationGraph = ReturnType<typeof buildGenerationGraph>;

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
  const readable = options as Partial<RetrievalGraphOptions & { name: unknown }> | null | undefined;
  const settings = resolveRetrievalOptions(options, readable?.knowledgeBase);
  const name = resolveToolName(readable?.name, TOOL_NAME);
  const kb = checkRetrievalSource(options.knowledgeBase);
  const trace = resolveTraceSink(options);
  const extras: RetrievalGraphExtras = { close: () => closeOwnedTraceSink(trace) };
  return Object.assign(recordGraphRunIdentity(buildRetrievalGraph(kb, settings, trace.sink, name)), extras);
}

/** The compiled retrieval subgraph. */
export type RetrievalGraph = ReturnType<typeof createRetrievalGraph>;
