import type { LookupResult } from "../../types.js";
import type { RankedEntry } from "../report/report-sections.js";
import { percentile } from "../metrics/latency.js";

/** Longest hit-reason text kept per document in a report. */
export const MAX_REASON_CHARS = 120;

/** Cuts `text` to `max` characters, marking the cut with an ellipsis. */
export function cutText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** The first `shown` evidence blocks of a lookup as ranked entries (score to 4 places, reasons cut). */
export function topEntries(result: LookupResult, shown: number): RankedEntry[] {
  return result.evidence.slice(0, shown).map((block, rank) => ({
    doc: block.source,
    score: Number((block.score ?? shown - rank).toFixed(4)),
    reasons: cutText(block.hitReasons.join("; "), MAX_REASON_CHARS),
  }));
}

/**
 * Median milliseconds of each lookup stage (`l0Ms` → `l0`, ...) over the lookups that carry
 * timings; the total and the trace write are left out (the run measures the total itself and
 * writes no trace).
 */
export function stageMedians(results: Iterable<LookupResult>): Record<string, number> {
  const byStage = new Map<string, number[]>();
  for (const result of results) {
    for (const [key, value] of Object.entries(result.timings ?? {})) {
      if (key === "totalMs" || key === "traceMs" || !key.endsWith("Ms") || typeof value !== "number") continue;
      const stage = key.slice(0, -2);
      byStage.set(stage, [...(byStage.get(stage) ?? []), value]);
    }
  }
  return Object.fromEntries([...byStage].map(([stage, values]) => [stage, percentile(values, 50)]));
}
