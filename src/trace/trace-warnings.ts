/** What the trace sink reports when it cannot write, and the default channel for it. */
import { errorMessage, LookupKnowledgeError } from "../errors.js";

/** `code` of the process warnings the trace sink emits by default. */
export const TRACE_WARNING_CODE = "LOOKUP_KNOWLEDGE_TRACE";

/** The error for a trace path that is not a regular file. */
export function traceRefused(path: string, kind: string): LookupKnowledgeError {
  return new LookupKnowledgeError(
    "TRACE_UNAVAILABLE",
    `the trace path "${path}" is ${kind}, not a regular file; lookups go on without a trace.`,
  );
}

/** The error for a write that put only part of a line in the file (a full disk, a quota). */
export function traceShortWrite(path: string, written: number, total: number): LookupKnowledgeError {
  return new LookupKnowledgeError(
    "TRACE_UNAVAILABLE",
    `cannot write the trace to "${path}" (wrote ${written} of ${total} bytes); lookups go on without a trace.`,
  );
}

/** The error for a record that cannot become a JSON line. */
export function traceUnserializable(path: string, reason: string): LookupKnowledgeError {
  return new LookupKnowledgeError(
    "TRACE_UNAVAILABLE",
    `cannot write the trace to "${path}" (${reason}); lookups go on without a trace.`,
  );
}

/** The one-line warning for a failure of the trace sink (pure). */
export function traceWarningMessage(error: unknown, path: string): string {
  if (error instanceof LookupKnowledgeError) return error.message;
  return `lookup-knowledge: cannot write the trace to "${path}" (${errorMessage(error)}); lookups go on without a trace.`;
}

/**
 * The default `onFirstError` of the sink: a process warning, Node's channel for library warnings
 * (printed to stderr unless the app listens for `"warning"` or runs with `--no-warnings`).
 */
export function emitTraceWarning(error: unknown, path: string): void {
  process.emitWarning(traceWarningMessage(error, path), { code: TRACE_WARNING_CODE });
}
