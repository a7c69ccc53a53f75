/**
 * Records for the trace reliability scenarios: ones that would be far above the 64 KiB bound
 * unbounded (1 MB titles, 10,000 hit reasons, a 3 MB field) and ones just at or under it.
 */
import { MAX_TRACE_LINE_BYTES } from "../../../src/trace/trace-limits.js";
import { toTraceRecord, type ToolInvocationRecord } from "../../../src/trace/trace-record.js";
import { block, lookupResult, traceContext } from "../../trace/trace-inputs.js";

/** Any record the scenarios append: each has a unique `invocation_id`. */
export type ScenarioRecord =
  ToolInvocationRecord | { type: string; invocation_id: string; padding?: string; payload?: string };

const TITLE = `Refund approval${" limits".repeat(150_000)}`;
const REASONS = Array.from({ length: 10_000 }, (_, i) => `L0:keyword:term-${i}`);
const FIELD = "漢".repeat(1_000_000);

/** A generic record whose JSONL line is exactly `bytes` long, newline included. */
export function recordOfLineBytes(id: string, bytes: number): ScenarioRecord {
  const empty = Buffer.byteLength(`${JSON.stringify({ type: "padding", invocation_id: id, padding: "" })}\n`);
  return { type: "padding", invocation_id: id, padding: "p".repeat(bytes - empty) };
}

/** The `i`-th record of a scenario: kinds rotate through huge, at-the-bound and just-under records. */
export function scenarioRecord(id: string, i: number): ScenarioRecord {
  switch (i % 5) {
    case 0: {
      const evidence = Array.from({ length: 5 }, (_, n) =>
        block({ source: `huge.md#s${n}`, title: TITLE, hitReasons: [`L0:title:${TITLE}`, "L1:similarity:0.50"] }),
      );
      return toTraceRecord({ ...lookupResult(evidence, { titles: [TITLE] }), invocationId: id }, traceContext());
    }
    case 1: {
      const evidence = Array.from({ length: 20 }, (_, n) =>
        block({ source: `${"deep/".repeat(1_000)}doc-${n}.md#top`, hitReasons: REASONS }),
      );
      return toTraceRecord({ ...lookupResult(evidence), invocationId: id }, traceContext());
    }
    case 2:
      return recordOfLineBytes(id, MAX_TRACE_LINE_BYTES);
    case 3:
      return recordOfLineBytes(id, MAX_TRACE_LINE_BYTES - 1 - (i % 7));
    default:
      return { type: "custom", invocation_id: id, payload: FIELD };
  }
}
