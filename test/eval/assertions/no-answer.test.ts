import { describe, expect, it } from "vitest";
import noAnswer from "../../../src/eval/assertions/no-answer.js";
import type { RelevanceAssessment } from "../../../src/types.js";
import { grade, lookupResult } from "../helpers/assertion-context.js";

function withRelevance(level: RelevanceAssessment["level"]) {
  return lookupResult({ relevance: { level, semanticSupport: false, reason: `judged ${level}` } });
}

describe("no-answer assertion", () => {
  it("passes low and none relevance, scoring no_answer_low 1 and quoting the relevance reason", () => {
    for (const level of ["low", "none"] as const) {
      const result = grade(noAnswer, { kind: "no-answer", artifact: withRelevance(level) });
      expect(result).toEqual({ pass: true, score: 1, reason: `relevance ${level}: judged ${level}`, namedScores: { no_answer_low: 1 } });
    }
  });

  it("fails a confident block (medium or high relevance) for an unanswerable question, naming the level", () => {
    for (const level of ["medium", "high"] as const) {
      const result = grade(noAnswer, { kind: "no-answer", artifact: withRelevance(level) });
      expect(result).toMatchObject({ pass: false, score: 0, namedScores: { no_answer_low: 0 } });
      expect(result.reason).toBe(`relevance ${level}: judged ${level}`);
    }
  });
});
