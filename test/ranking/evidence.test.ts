import { describe, expect, it } from "vitest";
import {
  DEFAULT_L0_WEIGHT,
  candidatesToEvidence,
  dedupeEvidence,
  toEvidenceBlock,
} from "../../src/ranking/evidence.js";
import type { LayeredEvidence } from "../../src/ranking/evidence.js";
import { makeCandidate, makeChunk } from "../helpers/retrieval-fakes.js";

function layered(
  source: string,
  layerScores: LayeredEvidence["layerScores"],
  extra: Partial<LayeredEvidence> = {},
): LayeredEvidence {
  const layer =
    layerScores.L0 !== undefined && layerScores.L1 !== undefined ? "L0+L1" : layerScores.L0 !== undefined ? "L0" : "L1";
  return { source, retrievalLayer: layer, content: `text of ${source}`, hitReasons: [], layerScores, ...extra };
}

describe("candidatesToEvidence", () => {
  it("min-max normalises the layer's scores within the list", () => {
    const evidence = candidatesToEvidence([makeCandidate("a", 6), makeCandidate("b", 4), makeCandidate("c", 2)], "L0");

    expect(evidence.map((block) => block.layerScores)).toEqual([{ L0: 1 }, { L0: 0.5 }, { L0: 0 }]);
  });

  it("scores a single candidate 1 whatever its raw score", () => {
    expect(candidatesToEvidence([makeCandidate("a", 0.12)], "L1")[0].layerScores).toEqual({ L1: 1 });
  });

  it("scores candidates that all tie 1", () => {
    expect(
      candidatesToEvidence([makeCandidate("a", 3), makeCandidate("b", 3)], "L0").map((block) => block.layerScores.L0),
    ).toEqual([1, 1]);
  });

  it("returns no evidence for no candidates", () => {
    expect(candidatesToEvidence([], "L0")).toEqual([]);
  });

  it("copies the chunk's source, title, breadcrumb and content and the candidate's hit reasons", () => {
    const chunk = makeChunk("billing/refunds.md#window", {
      title: "Refunds",
      breadcrumb: ["Refunds", "Window"],
      content: "Thirty days.",
    });
    const [block] = candidatesToEvidence(
      [makeCandidate(chunk, 2, { hitReasons: ["L0:keyword:refund"], coverage: 0.5 })],
      "L0",
    );

    expect(block).toEqual({
      source: "billing/refunds.md#window",
      title: "Refunds",
      breadcrumb: ["Refunds", "Window"],
      retrievalLayer: "L0",
      content: "Thirty days.",
      hitReasons: ["L0:keyword:refund"],
      layerScores: { L0: 1 },
      coverage: 0.5,
    });
  });

  it("omits a missing title and an empty breadcrumb rather than writing empty values", () => {
    const [block] = candidatesToEvidence([makeCandidate(makeChunk("notes.md#top", { breadcrumb: [] }), 1)], "L0");

    expect(block).not.toHaveProperty("title");
    expect(block).not.toHaveProperty("breadcrumb");
  });

  it("keeps the raw cosine similarity of L1 candidates and gives L0 candidates none", () => {
    const [l1] = candidatesToEvidence([makeCandidate("a", 0.42)], "L1");
    const [l0] = candidatesToEvidence([makeCandidate("a", 7.5)], "L0");

    expect(l1.similarity).toBe(0.42);
    expect(l1.retrievalLayer).toBe("L1");
    expect(l0).not.toHaveProperty("similarity");
  });
});

describe("dedupeEvidence", () => {
  it("weighs L0 by the default weight and L1 by the rest when both layers produced evidence", () => {
    const merged = dedupeEvidence([layered("a", { L0: 1 }), layered("b", { L1: 1 })], { limit: 10 });

    expect(DEFAULT_L0_WEIGHT).toBe(0.8);
    expect(merged.map((block) => [block.source, block.score])).toEqual([
      ["a", 0.8],
      ["b", expect.closeTo(0.2, 10)],
    ]);
  });

  it("lets a custom L0 weight reorder the layers", () => {
    const merged = dedupeEvidence([layered("a", { L0: 1 }), layered("b", { L1: 1 })], { l0Weight: 0.2, limit: 10 });

    expect(merged.map((block) => block.source)).toEqual(["b", "a"]);
    expect(merged[0].score).toBeCloseTo(0.8, 10);
    expect(merged[1].score).toBeCloseTo(0.2, 10);
  });

  it("fuses a block both layers found as the weighted sum of its normalised scores", () => {
    const merged = dedupeEvidence([layered("a", { L0: 0.5 }), layered("a", { L1: 1 }), layered("b", { L1: 0 })], {
      limit: 10,
    });

    expect(merged[0].source).toBe("a");
    expect(merged[0].score).toBeCloseTo(0.8 * 0.5 + 0.2 * 1, 10);
  });

  it("renormalises over the layers present, so L0-only evidence still scores up to 1", () => {
    const merged = dedupeEvidence([layered("a", { L0: 1 }), layered("b", { L0: 0.25 })], { limit: 10 });

    expect(merged.map((block) => block.score)).toEqual([1, 0.25]);
  });

  it("renormalises L1-only evidence the same way", () => {
    expect(dedupeEvidence([layered("a", { L1: 0.6 })], { limit: 10 })[0].score).toBeCloseTo(0.6, 10);
  });

  it("breaks score ties by source, ascending", () => {
    const merged = dedupeEvidence([layered("c", { L0: 1 }), layered("a", { L0: 1 }), layered("b", { L0: 1 })], {
      limit: 10,
    });

    expect(merged.map((block) => block.source)).toEqual(["a", "b", "c"]);
  });

  it("merges blocks of one source into an L0+L1 block with united hit reasons and both layers' signals", () => {
    const merged = dedupeEvidence(
      [
        layered("a", { L0: 1 }, { hitReasons: ["L0:keyword:refund", "shared"], coverage: 0.8 }),
        layered("a", { L1: 1 }, { hitReasons: ["shared", "L1:similarity:0.90"], similarity: 0.9 }),
      ],
      { limit: 10 },
    );

    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({
      retrievalLayer: "L0+L1",
      hitReasons: ["L0:keyword:refund", "shared", "L1:similarity:0.90"],
      layerScores: { L0: 1, L1: 1 },
      coverage: 0.8,
      similarity: 0.9,
      score: 1,
    });
  });

  it("dedupes by source and never by content", () => {
    const merged = dedupeEvidence(
      [layered("a", { L0: 1 }, { content: "same" }), layered("b", { L0: 1 }, { content: "same" })],
      { limit: 10 },
    );

    expect(merged.map((block) => block.source)).toEqual(["a", "b"]);
  });

  it("cuts the ranking to the limit after sorting", () => {
    const merged = dedupeEvidence(
      [layered("low", { L0: 0.1 }), layered("high", { L0: 0.9 }), layered("mid", { L0: 0.5 })],
      { limit: 2 },
    );

    expect(merged.map((block) => block.source)).toEqual(["high", "mid"]);
  });

  it("reads the content of the kept blocks only, once each, merged blocks included", () => {
    const reads: string[] = [];
    const counted = (source: string) => {
      const chunk = makeChunk(source);
      return Object.defineProperty(chunk, "content", {
        get: () => (reads.push(source), `text of ${source}`),
        enumerable: true,
      });
    };
    const chunks = ["a", "b", "c", "d", "e"].map(counted);
    const evidence = [
      ...candidatesToEvidence(
        chunks.map((chunk, i) => makeCandidate(chunk, 5 - i)),
        "L0",
      ),
      ...candidatesToEvidence([makeCandidate(chunks[4], 0.9), makeCandidate(chunks[3], 0.1)], "L1"),
    ];
    expect(reads).toEqual([]);

    const kept = dedupeEvidence(evidence, { limit: 2, l0Weight: 0.3 }).map(toEvidenceBlock);

    expect(kept.map((block) => [block.source, block.retrievalLayer, block.content])).toEqual([
      ["e", "L0+L1", "text of e"],
      ["a", "L0", "text of a"],
    ]);
    expect(reads.sort()).toEqual(["a", "e"]);
  });
});

describe("toEvidenceBlock", () => {
  it("drops the layer scores and publishes the score, term coverage and similarity rounded to four decimals", () => {
    const block = toEvidenceBlock({
      ...layered("a", { L0: 1, L1: 0.5 }, { coverage: 0.666666, similarity: 0.512345 }),
      score: 0.123456,
    });

    expect(block).toEqual({
      source: "a",
      retrievalLayer: "L0+L1",
      content: "text of a",
      hitReasons: [],
      score: 0.1235,
      termCoverage: 0.6667,
      similarity: 0.5123,
    });
  });

  it("leaves out the term coverage and similarity it does not know", () => {
    const block = toEvidenceBlock({ ...layered("a", { L0: 1 }), score: 1 });

    expect(block).toEqual({ source: "a", retrievalLayer: "L0", content: "text of a", hitReasons: [], score: 1 });
    expect(Object.keys(block)).not.toContain("termCoverage");
    expect(Object.keys(block)).not.toContain("similarity");
  });
});
