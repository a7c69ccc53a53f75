import { describe, expect, it } from "vitest";
import { RELEVANCE_THRESHOLDS, assessRelevance } from "../../src/ranking/relevance.js";
import type { LayeredEvidence } from "../../src/ranking/evidence.js";
import type { L1Status } from "../../src/types.js";

function top(fields: { coverage?: number; similarity?: number; hitReasons?: string[] }): LayeredEvidence {
  return {
    source: "doc.md#top",
    retrievalLayer: fields.similarity !== undefined ? "L0+L1" : "L0",
    content: "text",
    hitReasons: fields.hitReasons ?? [],
    layerScores: { L0: 1 },
    ...(fields.coverage !== undefined ? { coverage: fields.coverage } : {}),
    ...(fields.similarity !== undefined ? { similarity: fields.similarity } : {}),
  };
}

describe("assessRelevance", () => {
  it("says none, without semantic support, when there is no evidence", () => {
    expect(assessRelevance([], "ok")).toEqual({
      level: "none",
      semanticSupport: false,
      reason: "No evidence matched the query.",
    });
  });

  it("says high when L1 supports the top block and it covers the query's distinctive terms", () => {
    const relevance = assessRelevance([top({ coverage: 1, similarity: 0.8 })], "ok");

    expect(relevance.level).toBe("high");
    expect(relevance.semanticSupport).toBe(true);
    expect(relevance.reason).toContain("100% of the query's term weight");
  });

  it("says high at exactly the strong-coverage and semantic-support thresholds", () => {
    const relevance = assessRelevance(
      [top({ coverage: RELEVANCE_THRESHOLDS.strongCoverage, similarity: RELEVANCE_THRESHOLDS.semanticSupport })],
      "ok",
    );

    expect(relevance).toMatchObject({ level: "high", semanticSupport: true });
  });

  it("says medium for a close paraphrase: coverage below the partial threshold with a strong similarity", () => {
    const relevance = assessRelevance(
      [
        top({
          coverage: RELEVANCE_THRESHOLDS.partialCoverage - 0.05,
          similarity: RELEVANCE_THRESHOLDS.strongSimilarity,
        }),
      ],
      "ok",
    );

    expect(relevance).toMatchObject({ level: "medium", semanticSupport: true });
    expect(relevance.reason).toMatch(/^Plausible paraphrase: /);
  });

  it("says low for coverage below the partial threshold when the similarity is only moderate", () => {
    const relevance = assessRelevance([top({ coverage: 0.3, similarity: 0.45 })], "ok");

    expect(relevance).toMatchObject({ level: "low", semanticSupport: true });
    expect(relevance.reason).toMatch(/^Uncertain match: /);
  });

  it("says medium for strong keyword evidence when the dense layer does not support it", () => {
    const relevance = assessRelevance([top({ coverage: 0.9, similarity: 0.1 })], "ok");

    expect(relevance).toMatchObject({ level: "medium", semanticSupport: false });
    expect(relevance.reason).toBe(
      "Plausible match: the top block has 90% of the query's term weight, similarity 0.10; check it against the question.",
    );
  });

  it("says medium at most, naming the L1 status, for strong keyword evidence when L1 did not answer", () => {
    const relevance = assessRelevance([top({ coverage: 1, hitReasons: ["L0:keyword:refund"] })], "empty");

    expect(relevance).toMatchObject({ level: "medium", semanticSupport: false });
    expect(relevance.reason).toContain("dense layer empty");
  });

  it("says low when the top block covers little of the query and nothing supports it", () => {
    expect(assessRelevance([top({ coverage: 0.2 })], "disabled")).toMatchObject({
      level: "low",
      semanticSupport: false,
    });
  });

  it("says medium, never high, for a semantically similar block that lacks the query's distinctive terms", () => {
    const relevance = assessRelevance([top({ coverage: 0.1, similarity: 0.99 })], "ok");

    expect(relevance).toMatchObject({ level: "medium", semanticSupport: true });
    expect(relevance.reason).toContain("10% of the query's term weight");
  });

  it("does not let a hint reason stand in for coverage", () => {
    const relevance = assessRelevance([top({ coverage: 0.3, hitReasons: ["L0:alias:PTO"] })], "empty");

    expect(relevance.level).toBe("low");
    expect(relevance.reason).toContain("30% of the query's term weight");
  });

  it("ignores the similarity when semanticSupport and strongSimilarity are both 1, and says so", () => {
    const thresholds = { ...RELEVANCE_THRESHOLDS, semanticSupport: 1, strongSimilarity: 1 };
    const strong = assessRelevance([top({ coverage: 1, similarity: 1 })], "ok", thresholds);
    const paraphrase = assessRelevance([top({ coverage: 0.1, similarity: 1 })], "ok", thresholds);

    expect(strong).toMatchObject({ level: "medium", semanticSupport: false });
    expect(strong.reason).toContain("similarity not used (not calibrated for this corpus)");
    expect(paraphrase).toMatchObject({ level: "low", semanticSupport: false });
  });

  it.each<L1Status | null>(["empty", "error", "disabled", "unavailable", null])(
    "never claims semantic support when the L1 status is %s, even with a high similarity on the block",
    (status) => {
      const relevance = assessRelevance([top({ coverage: 1, similarity: 0.99 })], status);

      expect(relevance.semanticSupport).toBe(false);
      expect(relevance.level).not.toBe("high");
    },
  );

  it("judges only the top block", () => {
    const strongSecond = top({ coverage: 1, similarity: 0.9 });
    expect(assessRelevance([top({ coverage: 0.1 }), strongSecond], "ok").level).toBe("low");
  });
});
