import type { TraceSink } from "../trace/jsonl-trace-sink.js";
import { toErrorRecord } from "../trace/trace-record.js";
import type { RetrievalStateType } from "./state.js";

/**
 * Appends the error line of a lookup that failed inside the graph (its scope could not be
 * established), from the lookup's state; the lookup's own error is what its caller needs, so a
 * failing sink is ignored.
 */
export async function traceLookupFailure(
  sink: TraceSink,
  state: RetrievalStateType,
  error: unknown,
  context: { toolName: string; corpusFingerprint: string | null; indexGeneration: string | null },
): Promise<void> {
  const input = {
    query: typeof state.query === "string" ? state.query : String(state.query),
    domain: state.domain ?? null,
    limit: state.limit,
  };
  const record = toErrorRecord(
    state.invocationId,
    {
      ...context,
      startedAt: state.startedAt,
      durationMs: Date.now() - state.startedAt,
      input,
      identity: state.runIdentity,
      access: null,
    },
    error,
  );
  try {
    await sink.append(record);
  } catch {
    // The lookup's error is rethrown by the node.
  }
}
