import { describe, expect, it } from "vitest";
import { RELEVANCE_THRESHOLDS, assessRelevance, type RelevanceThresholds } from "../../src/ranking/relevance.js";
import type { LayeredEvidence } from "../../src/ranking/evidence.js";
import type { L1Status } from "../../src/types.js";

function block(fields: { source?: string; coverage?: number; similarity?: number } = {}): LayeredEvidence {
  return {
    source: fields.source ?? "doc.md#top",
    retrievalLayer: fields.similarity !== undefined ? "L0+L1" : "L0",
    content: "text",
    hitReasons: [],
    layerScores: { L0: 1 },
    ...(fields.coverage !== undefined ? { coverage: fields.coverage } : {}),
    ...(fields.similarity !== undefined ? { similarity: fields.similarity } : {}),
  };
}

const T = RELEVANCE_THRESHOLDS;
/** Thresholds as a calibration for an embedder whose cosines sit high might set them. */
const CALIBRATED: RelevanceThresholds = {
  partialCoverage: 0.5,
  strongCoverage: 0.8,
  semanticSupport: 0.85,
  strongSimilarity: 0.95,
};
/** Similarity thresholds that turn similarity off. */
const NO_SIMILARITY: RelevanceThresholds = { ...RELEVANCE_THRESHOLDS, semanticSupport: 1, strongSimilarity: 1 };
const NOT_OK: (L1Status | null)[] = ["empty", "error", "disabled", "unavailable", null];

describe("assessRelevance levels", () => {
  it("says none when there is no evidence", () => {
    expect(assessRelevance([], "ok")).toEqual({
      level: "none",
      semanticSupport: false,
      reason: "No evidence matched the query.",
    });
  });

  it("says high from strong coverage with dense support, naming both", () => {
    const relevance = assessRelevance([block({ coverage: T.strongCoverage, similarity: T.semanticSupport })], "ok");

    expect(relevance).toMatchObject({ level: "high", semanticSupport: true });
    expect(relevance.reason).toBe(
      `Strong match: the top block has 60% of the query's term weight, similarity ${T.semanticSupport.toFixed(2)}.`,
    );
  });

  it("says medium, not high, for strong coverage the dense layer does not support", () => {
    const relevance = assessRelevance([block({ coverage: 1, similarity: T.semanticSupport - 0.01 })], "ok");

    expect(relevance).toMatchObject({ level: "medium", semanticSupport: false });
    expect(relevance.reason).toMatch(/^Plausible match: /);
  });

  it("says medium from partial coverage alone, and asks for a check", () => {
    const relevance = assessRelevance([block({ coverage: T.partialCoverage })], "ok");

    expect(relevance).toMatchObject({ level: "medium", semanticSupport: false });
    expect(relevance.reason).toBe(
      "Plausible match: the top block has 35% of the query's term weight, not among the dense layer's nearest; check it against the question.",
    );
  });

  it("says medium for a paraphrase: little coverage but a similarity as high as a right answer's", () => {
    const relevance = assessRelevance([block({ coverage: 0.1, similarity: T.strongSimilarity })], "ok");

    expect(relevance).toMatchObject({ level: "medium", semanticSupport: true });
    expect(relevance.reason).toBe(
      `Plausible paraphrase: the top block has 10% of the query's term weight, similarity ${T.strongSimilarity.toFixed(2)}; check it against the question.`,
    );
  });

  it("says low just under both medium rules, saying unrelated blocks reach as much", () => {
    const relevance = assessRelevance(
      [block({ coverage: T.partialCoverage - 0.01, similarity: T.strongSimilarity - 0.01 })],
      "ok",
    );

    expect(relevance).toMatchObject({ level: "low", semanticSupport: true });
    expect(relevance.reason).toBe(
      "Uncertain match: the top block has 34% of the query's term weight, similarity 0.69, no more than unrelated blocks of this corpus reach.",
    );
  });

  it("counts a block without coverage as covering nothing", () => {
    expect(assessRelevance([block({ similarity: T.semanticSupport })], "ok")).toMatchObject({
      level: "low",
      semanticSupport: true,
    });
    expect(assessRelevance([block({ similarity: T.semanticSupport })], "ok").reason).toContain(
      "0% of the query's term weight",
    );
  });

  it("judges only the top block", () => {
    expect(
      assessRelevance([block({ coverage: 0.1 }), block({ source: "b.md#x", coverage: 1, similarity: 0.9 })], "ok")
        .level,
    ).toBe("low");
  });

  it("reads the thresholds it is given, as a calibration sets them", () => {
    const level = (coverage: number, similarity: number) =>
      assessRelevance([block({ coverage, similarity })], "ok", CALIBRATED).level;

    expect(level(0.8, 0.85)).toBe("high");
    expect(level(0.8, 0.84)).toBe("medium");
    expect(level(0.5, 0.5)).toBe("medium");
    expect(level(0.4, 0.95)).toBe("medium");
    expect(level(0.4, 0.9)).toBe("low");
  });

  it("does not use similarity when both similarity thresholds are 1, and says so", () => {
    const relevance = assessRelevance([block({ coverage: 1, similarity: 1 })], "ok", NO_SIMILARITY);

    expect(relevance).toMatchObject({ level: "medium", semanticSupport: false });
    expect(relevance.reason).toContain("similarity not used");
    expect(relevance.reason).not.toContain("similarity 1.00");
  });

  it("decides the level from coverage alone when similarity is not used", () => {
    for (const similarity of [-1, 0, 0.5, 0.99, 1]) {
      expect(assessRelevance([block({ coverage: 0.9, similarity })], "ok", NO_SIMILARITY).level).toBe("medium");
      expect(assessRelevance([block({ coverage: T.partialCoverage, similarity })], "ok", NO_SIMILARITY).level).toBe(
        "medium",
      );
      expect(
        assessRelevance([block({ coverage: T.partialCoverage - 0.01, similarity })], "ok", NO_SIMILARITY).level,
      ).toBe("low");
    }
  });

  it.each(NOT_OK)("ignores the similarity when the L1 status is %s, and names the status", (status) => {
    const paraphrase = assessRelevance([block({ coverage: 0.1, similarity: 0.99 })], status);
    const strong = assessRelevance([block({ coverage: 1, similarity: 0.99 })], status);

    expect(paraphrase).toMatchObject({ level: "low", semanticSupport: false });
    expect(strong).toMatchObject({ level: "medium", semanticSupport: false });
    expect(strong.reason).toContain(`dense layer ${status ?? "not run"}`);
    expect(strong.reason).not.toContain("similarity 0.99");
  });
});
