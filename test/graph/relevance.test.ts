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

  it("says high when L1 supports the top block and it covers most query terms", () => {
    const relevance = assessRelevance([top({ coverage: 1, similarity: 0.8 })], "ok");

    expect(relevance.level).toBe("high");
    expect(relevance.semanticSupport).toBe(true);
    expect(relevance.reason).toContain("100% of query terms");
  });

  it("says high at exactly the strong-coverage and semantic-similarity thresholds", () => {
    const relevance = assessRelevance(
      [top({ coverage: RELEVANCE_THRESHOLDS.strongCoverage, similarity: RELEVANCE_THRESHOLDS.semanticSimilarity })],
      "ok",
    );

    expect(relevance).toMatchObject({ level: "high", semanticSupport: true });
  });

  it("says high for a hinted block with moderate coverage and semantic support", () => {
    expect(assessRelevance([top({ coverage: 0.4, similarity: 0.5, hitReasons: ["L0:title:Refunds"] })], "ok").level).toBe("high");
  });

  it("says medium for a dense match with partial term overlap", () => {
    expect(assessRelevance([top({ coverage: 0.4, similarity: 0.5 })], "ok")).toMatchObject({ level: "medium", semanticSupport: true });
  });

  it("says medium for strong keyword evidence when the dense similarity is weak", () => {
    const relevance = assessRelevance([top({ coverage: 0.9, similarity: 0.1 })], "ok");

    expect(relevance).toMatchObject({ level: "medium", semanticSupport: false });
    expect(relevance.reason).toContain("similarity is weak");
  });

  it("says medium at most, naming the L1 status, for strong keyword evidence when L1 did not answer", () => {
    const relevance = assessRelevance([top({ coverage: 1, hitReasons: ["L0:keyword:refund"] })], "empty");

    expect(relevance).toMatchObject({ level: "medium", semanticSupport: false });
    expect(relevance.reason).toContain("(empty)");
  });

  it("says low when the top block shares few query terms and nothing supports it", () => {
    expect(assessRelevance([top({ coverage: 0.2 })], "disabled")).toMatchObject({ level: "low", semanticSupport: false });
  });

  it("says low for a semantically similar block that shares almost no query terms", () => {
    expect(assessRelevance([top({ coverage: 0.1, similarity: 0.9 })], "ok").level).toBe("low");
  });

  it("does not count a body or bm25 reason as a hint", () => {
    expect(assessRelevance([top({ coverage: 0.4, hitReasons: ["L0:body:refund", "L0:bm25:2.00"] })], "empty").level).toBe("low");
  });

  it("counts a hint reason as strong lexical evidence at moderate coverage", () => {
    expect(assessRelevance([top({ coverage: 0.4, hitReasons: ["L0:alias:PTO"] })], "empty").level).toBe("medium");
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
