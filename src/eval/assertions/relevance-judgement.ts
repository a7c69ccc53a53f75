import type { AssertionContext, GradingResult } from "../promptfoo/promptfoo-shapes.js";
import { isFailure, readCase } from "../promptfoo/golden-case.js";

/**
 * Whether the relevance judgement kept its promise, per half of the golden set: a right first
 * answer should be rated medium or high (`<split>:right_first_rated`), a question the corpus
 * cannot answer low or none (`<split>:no_answer_rated`). A case whose first block is wrong gets no
 * score (its rating promises nothing about a right answer). Informative: the means are gated
 * against the baseline, so the case itself always passes.
 */
export default function relevanceJudgement(_output: string, context: AssertionContext): GradingResult {
  const graded = readCase(context);
  if (isFailure(graded)) return graded;
  const { vars, artifact, ranked } = graded;
  const level = artifact.relevance.level;
  if (vars.gold.length === 0) {
    const kept = level === "low" || level === "none" ? 1 : 0;
    return { pass: true, score: kept, reason: `no-answer question rated ${level}`, namedScores: { [`${vars.split}:no_answer_rated`]: kept } };
  }
  if (ranked[0] === undefined || !vars.gold.includes(ranked[0])) {
    return { pass: true, score: 1, reason: `first block ${ranked[0] ?? "(none)"} is not gold: rating ${level} not scored` };
  }
  const kept = level === "medium" || level === "high" ? 1 : 0;
  return { pass: true, score: kept, reason: `right first answer rated ${level}`, namedScores: { [`${vars.split}:right_first_rated`]: kept } };
}
