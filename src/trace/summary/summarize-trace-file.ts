/** Summarising a trace file on disk. */
import { readTraceLines } from "./read-trace-lines.js";
import { createTraceSummarizer, type TraceSummaryOptions } from "./summarize-records.js";
import type { TraceSummary } from "./trace-summary.js";

/**
 * Summarises a JSONL trace file read as a stream (any size, bounded memory).
 * @throws LookupKnowledgeError `TRACE_UNAVAILABLE` when the file is missing, not a regular file, or unreadable.
 * @example
 * const summary = await summarizeTraceFile("traces/tool_invocation.jsonl", { since: Date.now() - 86_400_000 });
 * summary.fallbackReason; // { none: 812, l1_empty: 40 }
 */
export async function summarizeTraceFile(path: string, options: TraceSummaryOptions = {}): Promise<TraceSummary> {
  const summarizer = createTraceSummarizer(options);
  await readTraceLines(path, summarizer);
  return summarizer.summary();
}
