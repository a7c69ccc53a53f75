import type { AssertionValueFunctionContext, GradingResult } from "promptfoo";
import { isFailure, readCase } from "../promptfoo/golden-case.js";

/** For a question the corpus cannot answer, the right result is low (or no) relevance, not a confident block. */
export default function noAnswer(_output: string, context: AssertionValueFunctionContext): GradingResult {
  const graded = readCase(context);
  if (isFailure(graded)) return graded;
  const { level, reason } = graded.artifact.relevance;
  const pass = level === "low" || level === "none";
  return { pass, score: pass ? 1 : 0, reason: `relevance ${level}: ${reason}`, namedScores: { no_answer_low: pass ? 1 : 0 } };
}
