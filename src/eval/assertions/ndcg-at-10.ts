import type { AssertionContext, GradingResult } from "../promptfoo/promptfoo-shapes.js";
import { ndcgAtK } from "../metrics/index.js";
import { isFailure, judgements, metricResult, readCase } from "../promptfoo/golden-case.js";

/** nDCG@10 of the evidence order against the case's gold sources (graded: first gold 2, others 1). */
export default function ndcgAt10(_output: string, context: AssertionContext): GradingResult {
  const graded = readCase(context);
  if (isFailure(graded)) return graded;
  const value = ndcgAtK(graded.ranked, judgements(graded.vars.gold), 10);
  return metricResult("nDCG@10", value, Number(context.config?.min ?? 0), `top: ${graded.ranked[0] ?? "none"}`);
}
