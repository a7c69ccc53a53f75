import type { LookupRefusal } from "../graph/lookup-runner.js";
import type { RunIdentity } from "../trace/run-identity.js";

/** Writes the trace line of a call refused by the tool's input schema. */
export type RefusalTrace = (refusal: LookupRefusal, identity?: RunIdentity) => Promise<void>;

/** The refusal trace of each lookup tool, by tool; weak, so a dropped tool takes its entry along. */
const traces = new WeakMap<object, RefusalTrace>();

/** Records how `tool` traces a refused call (done once, by `createLookupKnowledgeTool`). */
export function setRefusalTrace(tool: object, trace: RefusalTrace): void {
  traces.set(tool, trace);
}

/**
 * How `tool` writes the line of a call its schema refused (into the tool's own trace, with its
 * name, scope and generation); a no-op for a tool this package did not make.
 */
export function refusalTraceOf(tool: object): RefusalTrace {
  return traces.get(tool) ?? (async () => undefined);
}
