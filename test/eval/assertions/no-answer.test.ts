import { describe, expect, it } from "vitest";
import noAnswer from "../../../src/eval/assertions/no-answer.js";
import type { RelevanceAssessment } from "../../../src/types.js";
import { grade, lookupResult } from "../helpers/assertion-context.js";

function withRelevance(level: RelevanceAssessment["level"]) {
  return lookupResult({ relevance: { level, semanticSupport: false, reason: `judged ${level}` } });
}

describe("no-answer assertion", () => {
  it("scores low and none relevance no_answer_low 1, quoting the relevance reason", () => {
    for (const level of ["low", "none"] as const) {
      const result = grade(noAnswer, { kind: "no-answer", artifact: withRelevance(level) });
      expect(result).toEqual({ pass: true, score: 1, reason: `no_answer_low = 1.000 (min 0); relevance ${level}: judged ${level}`, namedScores: { no_answer_low: 1 } });
    }
  });

  it("scores a confident block (medium or high relevance) 0 but leaves the case passing: the mean is gated, not the case", () => {
    for (const level of ["medium", "high"] as const) {
      const result = grade(noAnswer, { kind: "no-answer", artifact: withRelevance(level) });
      expect(result).toMatchObject({ pass: true, score: 0, namedScores: { no_answer_low: 0 } });
      expect(result.reason).toBe(`no_answer_low = 0.000 (min 0); relevance ${level}: judged ${level}`);
    }
  });

  it("fails the case below config.min", () => {
    expect(grade(noAnswer, { kind: "no-answer", artifact: withRelevance("high"), config: { min: 1 } })).toMatchObject({ pass: false, score: 0 });
  });
});
