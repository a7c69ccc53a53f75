/** The run ids of a retrieval graph invoked directly (not through the tool or the retriever). */
import type { RunnableConfig } from "@langchain/core/runnables";
import { idOf, newRunId, threadIdOf, type RunIdentity } from "../trace/run-identity.js";

/** True when the input already names its run (the tool's runner, or a parent graph that shares the state). */
function named(identity: unknown): boolean {
  const ids = identity as Partial<RunIdentity> | null | undefined;
  return (
    typeof ids === "object" && ids !== null && (ids.runId != null || ids.toolCallId != null || ids.threadId != null)
  );
}

/**
 * Makes `graph.invoke` record the ids of its own run in the trace (`state.runIdentity`): the
 * graph run's id is the caller's `config.runId` or a new UUID v7 given to the run as its
 * `runId`, so that a tracer (LangSmith) shows the same id; the thread is
 * `config.configurable.thread_id`; `tool_call_id` is `config.toolCall.id` when a tool passed its
 * own config along. Nodes cannot see their graph's run id, hence the wrapper. An input that is
 * not a plain object (a `Command`, null on resume) or already carries ids goes through unchanged.
 */
export function recordGraphRunIdentity<G extends { invoke(input: never, config?: never): Promise<unknown> }>(
  graph: G,
): G {
  const invoke = graph.invoke.bind(graph) as (input: unknown, config?: RunnableConfig) => Promise<unknown>;
  const identified = (input: unknown, config?: RunnableConfig): Promise<unknown> => {
    if (
      input === null ||
      typeof input !== "object" ||
      Array.isArray(input) ||
      Object.getPrototypeOf(input) !== Object.prototype
    )
      return invoke(input, config);
    if (named((input as { runIdentity?: unknown }).runIdentity)) return invoke(input, config);
    const runId = idOf(config?.runId) ?? newRunId();
    const identity: RunIdentity = {
      toolCallId: idOf((config as { toolCall?: { id?: unknown } } | undefined)?.toolCall?.id),
      runId,
      threadId: threadIdOf(config),
    };
    return invoke({ ...input, runIdentity: identity }, { ...config, runId });
  };
  graph.invoke = identified as G["invoke"];
  return graph;
}
