import { describe, expect, it } from "vitest";
import { RELEVANCE_THRESHOLDS, assessRelevance } from "../../src/graph/relevance.js";
import type { LayeredEvidence } from "../../src/graph/state.js";
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
    expect(assessRelevance([], "ok")).toEqual({ level: "none", semanticSupport: false, reason: "No evidence matched the query." });
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

  it("says medium for a close paraphrase: partial coverage with a strong similarity", () => {
    const relevance = assessRelevance([top({ coverage: RELEVANCE_THRESHOLDS.partialCoverage, similarity: RELEVANCE_THRESHOLDS.strongSimilarity })], "ok");

    expect(relevance).toMatchObject({ level: "medium", semanticSupport: true });
    expect(relevance.reason).toContain("paraphrase");
  });

  it("says low for partial coverage when the similarity is only moderate", () => {
    expect(assessRelevance([top({ coverage: 0.45, similarity: 0.45 })], "ok")).toMatchObject({ level: "low", semanticSupport: true });
  });

  it("says medium for strong keyword evidence when the dense layer does not support it", () => {
    const relevance = assessRelevance([top({ coverage: 0.9, similarity: 0.1 })], "ok");

    expect(relevance).toMatchObject({ level: "medium", semanticSupport: false });
    expect(relevance.reason).toContain("does not support it");
  });

  it("says medium at most, naming the L1 status, for strong keyword evidence when L1 did not answer", () => {
    const relevance = assessRelevance([top({ coverage: 1, hitReasons: ["L0:keyword:refund"] })], "empty");

    expect(relevance).toMatchObject({ level: "medium", semanticSupport: false });
    expect(relevance.reason).toContain("(empty)");
  });

  it("says low when the top block covers little of the query and nothing supports it", () => {
    expect(assessRelevance([top({ coverage: 0.2 })], "disabled")).toMatchObject({ level: "low", semanticSupport: false });
  });

  it("says low for a semantically similar block that lacks the query's distinctive terms", () => {
    expect(assessRelevance([top({ coverage: 0.1, similarity: 0.9 })], "ok").level).toBe("low");
  });

  it("does not let a hint reason stand in for coverage", () => {
    expect(assessRelevance([top({ coverage: 0.4, hitReasons: ["L0:alias:PTO"] })], "empty").level).toBe("low");
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
