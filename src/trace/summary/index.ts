/** `traces summary`: the pure aggregation and its renderings, and the streaming reader. */
export { BoundedCounter, DEFAULT_COUNTER_CAPACITY, type KeyCount } from "./bounded-counter.js";
export { formatTraceSummary } from "./format-summary.js";
export { escapeHtml, htmlTraceSummary } from "./html-summary.js";
export { DEFAULT_SAMPLE_CAPACITY, LatencySample, nearestRank, type LatencyPercentiles } from "./latency-sample.js";
export { MAX_LINE_READ_BYTES, readTraceLines, type TraceLineVisitor } from "./read-trace-lines.js";
export { parseSince } from "./since.js";
export { createTraceSummarizer, summarizeTraceLines, type TraceSummaryOptions } from "./summarize-records.js";
export type { DomainFilterUse, LineCounts, QueryCount, TraceSummary } from "./trace-summary.js";
export { escapeControls, shownQuery, SHOWN_QUERY_CHARS } from "./untrusted-text.js";
export { summarizeTraceFile } from "./summarize-trace-file.js";
