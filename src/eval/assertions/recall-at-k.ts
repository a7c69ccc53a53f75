import type { AssertionContext, GradingResult } from "../promptfoo/promptfoo-shapes.js";
import { recallAtK } from "../metrics/index.js";
import { isFailure, judgements, metricResult, readCase } from "../promptfoo/golden-case.js";

/** Share of the gold sources found within the top `k` (assertion config `k`, default 5). */
export default function recallAt(_output: string, context: AssertionContext): GradingResult {
  const graded = readCase(context);
  if (isFailure(graded)) return graded;
  const k = Number(context.config?.k ?? 5);
  const value = recallAtK(graded.ranked, judgements(graded.vars.gold), k);
  const found = graded.vars.gold.filter((source) => graded.ranked.slice(0, k).includes(source));
  return metricResult(`recall@${k}`, value, Number(context.config?.min ?? 0), `found ${found.length} of ${graded.vars.gold.length} gold sources`);
}
