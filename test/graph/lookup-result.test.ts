import { describe, expect, it } from "vitest";
import { buildLookupResult, retrievalLayerOf } from "../../src/graph/lookup-result.js";
import type { LayeredEvidence } from "../../src/ranking/evidence.js";
import type { RetrievalStateType } from "../../src/graph/state.js";
import type { Candidate, L1Status, RetrievalLayer } from "../../src/types.js";
import { NO_RUN_IDENTITY } from "../../src/trace/run-identity.js";
import { NO_HINTS, makeCandidate } from "../helpers/retrieval-fakes.js";

const some = (): Candidate[] => [makeCandidate("a.md#top", 1)];

describe("retrievalLayerOf", () => {
  it.each<[string, Candidate[], Candidate[], L1Status | null, RetrievalLayer]>([
    ["both layers found candidates and L1 answered", some(), some(), "ok", "L0+L1"],
    ["only L0 found candidates", some(), [], "empty", "L0"],
    ["L0 found candidates and L1 errored", some(), [], "error", "L0"],
    ["only L1 found candidates", [], some(), "ok", "L1"],
    ["nothing was found", [], [], "empty", "none"],
    ["nothing was found and L1 was off", [], [], "disabled", "none"],
    ["L1 candidates linger but L1 did not answer", some(), some(), "error", "L0"],
  ])("when %s", (_label, l0Candidates, l1Candidates, l1Status, expected) => {
    expect(retrievalLayerOf({ l0Candidates, l1Candidates, l1Status })).toBe(expected);
  });
});

describe("buildLookupResult", () => {
  function state(overrides: Partial<RetrievalStateType>): RetrievalStateType {
    return {
      query: "q",
      domain: null,
      limit: 5,
      invocationId: "inv-1",
      startedAt: 0,
      runStartedAt: 0,
      runIdentity: NO_RUN_IDENTITY,
      timings: {},
      scope: null,
      hints: NO_HINTS,
      l0Candidates: [],
      domainFilter: null,
      l1Status: "ok",
      l1Candidates: [],
      l1Error: null,
      fallbackReason: null,
      evidence: [],
      result: null,
      ...overrides,
    };
  }

  it("splits the merged evidence into primary and supplements and counts distinct candidate sources", () => {
    const merged: LayeredEvidence[] = ["a", "b", "c"].map((source, i) => ({
      source,
      retrievalLayer: "L0",
      content: source,
      hitReasons: [],
      layerScores: { L0: 1 - i / 4 },
      score: 1 - i / 4,
    }));
    const result = buildLookupResult(
      state({
        l0Candidates: [makeCandidate("a", 3), makeCandidate("b", 2)],
        l1Candidates: [makeCandidate("b", 0.5), makeCandidate("c", 0.4)],
      }),
      merged,
      true,
    );

    expect(result.primary?.source).toBe("a");
    expect(result.supplements.map((block) => block.source)).toEqual(["b", "c"]);
    expect(result.candidateCount).toBe(3);
    expect(result.evidenceCount).toBe(3);
    expect(result.traceWritten).toBe(true);
    expect(result.invocationId).toBe("inv-1");
  });

  it("does not count L1 candidates when L1 did not answer", () => {
    const result = buildLookupResult(
      state({ l0Candidates: [makeCandidate("a", 3)], l1Candidates: [makeCandidate("z", 0.9)], l1Status: "error" }),
      [],
      false,
    );

    expect(result.candidateCount).toBe(1);
  });
});
