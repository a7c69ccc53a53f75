import { preview } from "../../trace/trace-record.js";
import type { PromptfooOutput } from "./summarize-results.js";

type Row = PromptfooOutput["results"]["results"][number];

interface RawRow extends Row {
  response?: (NonNullable<Row["response"]> & { output?: unknown }) | null;
  gradingResult?: (NonNullable<Row["gradingResult"]> & { pass?: boolean; score?: number; reason?: string }) | null;
  score?: number;
  latencyMs?: number;
  testIdx?: number;
}

/** Characters of the evidence text kept per result in the trimmed results.json. @default 200 */
export const OUTPUT_PREVIEW_CHARS = 200;

function trimRow(row: RawRow): Record<string, unknown> {
  const grading = row.gradingResult;
  return {
    provider: { id: row.provider.id, ...(row.provider.label ? { label: row.provider.label } : {}) },
    success: row.success,
    failureReason: row.failureReason,
    ...(row.error ? { error: row.error } : {}),
    score: row.score,
    latencyMs: row.latencyMs,
    testIdx: row.testIdx,
    namedScores: row.namedScores,
    vars: row.vars,
    testCase: { description: row.testCase.description, metadata: row.testCase.metadata },
    response: row.response ? { output: preview(String(row.response.output ?? ""), OUTPUT_PREVIEW_CHARS), metadata: row.response.metadata } : null,
    gradingResult: grading
      ? {
          pass: grading.pass,
          score: grading.score,
          reason: grading.reason,
          // Passing components only repeat namedScores; the failed ones say why.
          componentResults: (grading.componentResults ?? []).filter((c) => !c.pass).map((c) => ({ pass: c.pass, reason: c.reason, assertion: { value: c.assertion?.value } })),
        }
      : null,
  };
}

/**
 * promptfoo's JSON output cut to what the summary, the report and a reader need (pure): per result
 * the variant, case, vars, named scores, the compact artifact, a preview of the evidence text and
 * the failed assertions; no duplicated metadata, token counts, prompts or passing components.
 */
export function trimPromptfooResults(output: PromptfooOutput & Record<string, unknown>): Record<string, unknown> {
  const results = output.results as PromptfooOutput["results"] & Record<string, unknown>;
  return {
    evalId: output.evalId,
    config: output.config,
    results: { version: results.version, timestamp: results.timestamp, stats: results.stats, results: results.results.map((row) => trimRow(row as RawRow)) },
  };
}
