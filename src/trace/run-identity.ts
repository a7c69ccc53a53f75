/** Which agent run a lookup belongs to: the ids an operator joins a trace line on. */
import { randomBytes } from "node:crypto";

/**
 * The ids of the run a lookup ran in, as the trace records them (`tool_call_id`, `run_id`,
 * `thread_id`); each is null when the caller had none, never absent.
 */
export interface RunIdentity {
  /** The `id` of the model's ToolCall the tool was invoked with (LangChain: `config.toolCall.id`). */
  toolCallId: string | null;
  /**
   * The LangChain run id of the run that made the lookup: the tool's run, the retriever's run, or
   * the retrieval graph's own run when it is invoked directly. What LangSmith shows as the run's id.
   */
  runId: string | null;
  /** `config.configurable.thread_id` of the agent run (a checkpointer's thread), when it has one. */
  threadId: string | null;
}

/** No ids known. */
export const NO_RUN_IDENTITY: Readonly<RunIdentity> = Object.freeze({ toolCallId: null, runId: null, threadId: null });

/** Longest id kept; a longer one is not an id LangChain made, and is cut by the trace bound anyway. */
const MAX_ID_CHARS = 128;

/** A string or finite number as an id; anything else (objects, blanks) as null. */
export function idOf(value: unknown): string | null {
  const text =
    typeof value === "string" ? value.trim() : typeof value === "number" && Number.isFinite(value) ? String(value) : "";
  return text.length > 0 ? text.slice(0, MAX_ID_CHARS) : null;
}

/** What the ids are read from: a LangChain `RunnableConfig`, read structurally (any shape may arrive). */
interface ConfigFields {
  toolCall?: { id?: unknown };
  configurable?: { thread_id?: unknown };
  callbacks?: unknown;
}

/** `config.configurable.thread_id`, or null. */
export function threadIdOf(config: unknown): string | null {
  return idOf((config as ConfigFields | null | undefined)?.configurable?.thread_id);
}

/**
 * The ids a tool function sees in its config: the ToolCall's id, the tool's own run id and the
 * thread id. `tool()` hands its function `callbacks` made by the tool run's `getChild()`, whose
 * parent run id is the tool run's id (@langchain/core 1.4: `StructuredTool.call` →
 * `handleToolStart` → `patchConfig(config, { callbacks: runManager.getChild() })`); without any
 * callback handler or tracer LangChain makes no run, and `runId` is null.
 */
export function toolRunIdentity(config: unknown): RunIdentity {
  const fields = config as ConfigFields | null | undefined;
  const callbacks = fields?.callbacks as { getParentRunId?: unknown } | undefined;
  const runId =
    typeof callbacks?.getParentRunId === "function"
      ? idOf((callbacks.getParentRunId as () => unknown).call(callbacks))
      : null;
  return { toolCallId: idOf(fields?.toolCall?.id), runId, threadId: threadIdOf(config) };
}

/**
 * A new run id in LangChain's own format (UUID v7: milliseconds since the epoch, then random
 * bits), for a run whose caller gave none.
 */
export function newRunId(now: number = Date.now()): string {
  const bytes = randomBytes(16);
  let ms = Math.max(0, Math.floor(now));
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
