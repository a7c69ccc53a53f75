/**
 * A generated trace of many lines for the `traces summary` tests, with what a summary of it must
 * say computed here, independently of the summariser (plain arrays, plain loops).
 */
import { writeFile } from "node:fs/promises";

/** Epoch milliseconds of the first record; each next one starts a second later. */
export const FIRST_STARTED_AT = Date.UTC(2026, 10, 1, 0, 0, 0);

const LAYERS = ["L0+L1", "L0", "L1", "none"] as const;
const LEVELS = ["high", "medium", "low", "none"] as const;

/** The fields of a generated record the tests read. */
export interface GeneratedRecord {
  status: "success" | "error";
  duration_ms: number;
  durations_ms: { l0: number };
  input: { query: string; domain: string | null };
  retrieval_details: {
    retrieval_layer: string;
    l1: { domain_filter: string | null };
    fallback_reason: string | null;
    relevance: { level: string };
    evidence_count: number;
  } | null;
}

/** The record of line `i` (a pure function of `i`). */
export function generatedRecord(i: number): Record<string, unknown> {
  const error = i % 50 === 0;
  const forced = i % 20 === 1;
  const hinted = !forced && i % 5 === 2;
  const layer = LAYERS[i % 4];
  const query = i % 1000 === 3 ? "evil \u001b[31mred\u001b[0m query" : `query number ${i % 37}`;
  const base = {
    type: "tool_invocation",
    invocation_id: `inv-${i}`,
    tool_call_id: `call_${i}`,
    run_id: null,
    thread_id: null,
    tool_name: i % 3 === 0 ? "lookup_billing" : "lookup_knowledge",
    started_at: new Date(FIRST_STARTED_AT + i * 1000).toISOString(),
    duration_ms: ((i * 7919) % 100_003) / 100,
    input: { query, domain: forced ? "billing" : null, limit: 5 },
    corpus_fingerprint: "fp",
  };
  if (error)
    return { ...base, status: "error", error: "boom", error_type: "EMBEDDINGS_FAILED", retrieval_details: null };
  return {
    ...base,
    status: "success",
    durations_ms: {
      l0: (i % 1000) / 10,
      embed: i % 7,
      l1: ((i * 31) % 500) / 100,
      merge: (i % 13) / 4,
      total: ((i * 7919) % 100_003) / 100,
    },
    retrieval_details: {
      retrieval_layer: layer,
      l0: { matched_titles: [], matched_keywords: [], domains: [], entities: [], domain_evidence: [] },
      l1: {
        status: i % 10 === 3 ? "empty" : i % 10 === 7 ? "error" : "ok",
        domain_filter: forced ? "billing" : hinted ? "it" : null,
        candidate_count: 3,
      },
      fallback_reason: i % 10 === 3 ? "l1_empty" : i % 10 === 7 ? "l1_error" : null,
      relevance: { level: LEVELS[(i >> 2) % 4], semantic_support: false },
      candidate_count: 3,
      evidence_count: layer === "none" ? 0 : 2,
      content_truncated: false,
      evidence: [],
    },
  };
}

/** Lines that are not records, inserted every 10,000 records: malformed, blank, a JSON array, and one record of another type. */
export const JUNK_LINES = ["{not json", "", "[1,2,3]", '{"type":"index_build","ok":true}'];

/** A partial last line: a record cut off mid-write, no newline. */
export const PARTIAL_LINE = '{"type":"tool_invocation","invocation_id":"inv-cut","status":"succ';

/** The nearest-rank percentile, written out again for the tests. */
export function expectedPercentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1];
}

/** The whole-line texts of a trace of `records` records with junk lines mixed in (the partial line not included). */
export function generatedLines(records: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < records; i++) {
    if (i > 0 && i % 10_000 === 0) lines.push(...JUNK_LINES);
    lines.push(JSON.stringify(generatedRecord(i)));
  }
  return lines;
}

/** Writes the trace to `path`: every line newline-terminated, then the partial line. */
export async function writeGeneratedTrace(path: string, records: number): Promise<void> {
  await writeFile(path, `${generatedLines(records).join("\n")}\n${PARTIAL_LINE}`);
}
