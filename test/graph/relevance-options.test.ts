import { describe, expect, it } from "vitest";
import { createRetrievalGraph } from "../../src/graph/retrieval-graph.js";
import { FakeL0Searcher, NO_HINTS, REFUND_CHUNK, fakeSource, makeCandidate } from "../helpers/retrieval-fakes.js";

describe("the relevance option of the retrieval graph", () => {
  const source = fakeSource({
    l0: new FakeL0Searcher({ hints: NO_HINTS, candidates: [makeCandidate(REFUND_CHUNK, 3, { coverage: 0.3 })] }),
    l1: null,
  });

  it("judges with the default thresholds when none are given", async () => {
    const { result } = await createRetrievalGraph({ knowledgeBase: source, tracePath: null }).invoke({
      query: "refund window",
    });
    expect(result?.relevance.level).toBe("low");
  });

  it("lets a caller lower the coverage a keyword match needs", async () => {
    const graph = createRetrievalGraph({
      knowledgeBase: source,
      tracePath: null,
      relevance: { partialCoverage: 0.25 },
    });
    const { result } = await graph.invoke({ query: "refund window" });
    expect(result?.relevance).toMatchObject({ level: "medium", semanticSupport: false });
  });
});
