import type { AssertionContext, GradingResult } from "../promptfoo/promptfoo-shapes.js";
import { mrrAtK } from "../metrics/index.js";
import { isFailure, judgements, metricResult, readCase } from "../promptfoo/golden-case.js";

/** Reciprocal rank of the first gold source within the top 10. */
export default function mrrAt10(_output: string, context: AssertionContext): GradingResult {
  const graded = readCase(context);
  if (isFailure(graded)) return graded;
  const value = mrrAtK(graded.ranked, judgements(graded.vars.gold), 10);
  return metricResult("MRR@10", value, Number(context.config?.min ?? 0), `first gold at rank ${value > 0 ? Math.round(1 / value) : "none"}`);
}
