import type { AssertionContext, GradingResult } from "../promptfoo/promptfoo-shapes.js";
import { hitAtK } from "../metrics/index.js";
import { isFailure, judgements, metricResult, readCase } from "../promptfoo/golden-case.js";

/** 1 when any gold source is within the top `k` (assertion config `k`, default 5), else 0. */
export default function hitAt(_output: string, context: AssertionContext): GradingResult {
  const graded = readCase(context);
  if (isFailure(graded)) return graded;
  const k = Number(context.config?.k ?? 5);
  const value = hitAtK(graded.ranked, judgements(graded.vars.gold), k);
  return metricResult(`hit@${k}`, value, Number(context.config?.min ?? 0), `top ${k}: ${graded.ranked.slice(0, k).join(", ") || "none"}`);
}
