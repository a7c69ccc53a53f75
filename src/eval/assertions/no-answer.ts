import type { AssertionContext, GradingResult } from "../promptfoo/promptfoo-shapes.js";
import { isFailure, metricResult, readCase } from "../promptfoo/golden-case.js";

/**
 * For a question the corpus cannot answer, the right result is low (or no) relevance, not a
 * confident block: `no_answer_low` 1 or 0. A quality score (its mean is gated), so the case fails
 * only below `config.min` (default 0).
 */
export default function noAnswer(_output: string, context: AssertionContext): GradingResult {
  const graded = readCase(context);
  if (isFailure(graded)) return graded;
  const { level, reason } = graded.artifact.relevance;
  const value = level === "low" || level === "none" ? 1 : 0;
  return metricResult("no_answer_low", value, Number(context.config?.min ?? 0), `relevance ${level}: ${reason}`);
}
