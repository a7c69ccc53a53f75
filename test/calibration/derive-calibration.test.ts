import { describe, expect, it } from "vitest";
import type { PseudoQueryScores } from "../../src/ranking/fused-rank.js";
import {
  chooseL0Weight,
  deriveCalibration,
  MIN_PSEUDO_QUERIES,
  quantile,
} from "../../src/calibration/derive-calibration.js";
import type { CorpusCalibration } from "../../src/calibration/calibration.js";
import type { PseudoQueryMeasurement } from "../../src/calibration/measure-pseudo-queries.js";
import { DEFAULT_L0_WEIGHT } from "../../src/ranking/evidence.js";
import { RELEVANCE_THRESHOLDS } from "../../src/ranking/relevance.js";

/** {@link deriveCalibration} when it calibrates; a reason to keep the defaults fails the test. */
function derived(measurements: readonly PseudoQueryMeasurement[], k: number, hasL1: boolean): CorpusCalibration {
  const result = deriveCalibration(measurements, k, hasL1);
  if (typeof result === "string") throw new Error(`expected a calibration, got: ${result}`);
  return result;
}

const K = 20;

/** Both layers rank the target first: every weight finds it. */
const AGREED: PseudoQueryScores = {
  l0: {
    others: [
      [1, 5],
      [2, 3],
      [3, 1],
    ],
    target: 10,
  },
  l1: {
    others: [
      [1, 0.5],
      [2, 0.4],
      [3, 0.3],
    ],
    target: 0.9,
  },
};

/** L1 ranks the target first, L0 last: only a low L0 weight finds it. */
const L1_BETTER: PseudoQueryScores = {
  l0: {
    others: [
      [1, 10],
      [2, 9],
      [3, 8],
    ],
    target: 1,
  },
  l1: {
    others: [
      [1, 0.5],
      [2, 0.4],
      [3, 0.3],
    ],
    target: 0.9,
  },
};

/** Neither layer holds the target: every weight misses it. */
const MISSED: PseudoQueryScores = {
  l0: { others: [[1, 5]], target: undefined },
  l1: { others: [[1, 0.5]], target: undefined },
};

function measurement(fields: Partial<PseudoQueryMeasurement> = {}): PseudoQueryMeasurement {
  return {
    scores: AGREED,
    target: { coverage: 0.8, similarity: 0.6 },
    background: { coverage: 0.3, similarity: 0.2 },
    ...fields,
  };
}

/**
 * 100 measurements whose signals spread evenly: background coverage i/100, background similarity
 * 0.05 + i/1000, target similarity 0.2 + i/500 (i = 0..99), each similarity shifted by `shift`.
 */
function spread(shift = 0): PseudoQueryMeasurement[] {
  return Array.from({ length: 100 }, (_, i) =>
    measurement({
      target: { coverage: 0.5 + i / 250, similarity: 0.2 + i / 500 + shift },
      background: { coverage: i / 100, similarity: 0.05 + i / 1000 + shift },
    }),
  );
}

describe("quantile", () => {
  it("takes the nearest rank of the sorted values", () => {
    const values = [5, 1, 3, 2, 4];

    expect(quantile(values, 0)).toBe(1);
    expect(quantile(values, 0.25)).toBe(2);
    expect(quantile(values, 0.5)).toBe(3);
    expect(quantile(values, 0.8)).toBe(4);
    expect(quantile(values, 0.9)).toBe(5);
    expect(quantile(values, 1)).toBe(5);
    expect(values).toEqual([5, 1, 3, 2, 4]);
  });

  it("is NaN for no values", () => {
    expect(quantile([], 0.5)).toBeNaN();
  });
});

describe("chooseL0Weight", () => {
  it("keeps the default weight when every weight ranks the targets alike", () => {
    expect(
      chooseL0Weight(
        Array.from({ length: 40 }, () => measurement({ scores: AGREED })),
        K,
      ),
    ).toBe(DEFAULT_L0_WEIGHT);
    expect(
      chooseL0Weight(
        Array.from({ length: 40 }, () => measurement({ scores: MISSED })),
        K,
      ),
    ).toBe(DEFAULT_L0_WEIGHT);
  });

  it("moves toward L1 when L1 clearly finds the targets that L0 ranks last", () => {
    const weight = chooseL0Weight(
      Array.from({ length: 40 }, () => measurement({ scores: L1_BETTER })),
      K,
    );

    expect(weight).toBeLessThan(0.5);
    expect(weight).toBeGreaterThanOrEqual(0);
    expect(Math.round(weight * 20)).toBeCloseTo(weight * 20, 10);
  });

  it("moves less when only a few targets need L1: a small gain does not pay for the move", () => {
    const few = [
      ...Array.from({ length: 4 }, () => measurement({ scores: L1_BETTER })),
      ...Array.from({ length: 36 }, () => measurement({ scores: AGREED })),
    ];
    const all = Array.from({ length: 40 }, () => measurement({ scores: L1_BETTER }));

    expect(chooseL0Weight(few, K)).toBeGreaterThan(chooseL0Weight(all, K));
  });
});

describe("deriveCalibration", () => {
  it(`says why it keeps the defaults under ${MIN_PSEUDO_QUERIES} measurements`, () => {
    expect(deriveCalibration(spread().slice(0, MIN_PSEUDO_QUERIES - 1), K, true)).toMatch(/calibration needs 30/);
    expect(typeof deriveCalibration(spread().slice(0, MIN_PSEUDO_QUERIES), K, true)).toBe("object");
  });

  it("keeps the defaults when the pseudo-queries hardly ever find their own chunk (near-copies in other files)", () => {
    const missed = Array.from({ length: 40 }, () => measurement({ scores: MISSED }));

    expect(deriveCalibration(missed, K, true)).toMatch(/near-copies/);
  });

  it("sets the coverage thresholds at the background's 80th and 90th percentiles", () => {
    const calibration = derived(spread(), K, true);

    expect(calibration).toMatchObject({ source: "measured", note: null, pseudoQueries: 100 });
    expect(calibration.relevance.partialCoverage).toBeCloseTo(0.79, 4);
    expect(calibration.relevance.strongCoverage).toBeCloseTo(0.89, 4);
  });

  it("sets semantic support at the background's median similarity and strong similarity at the target's 75th percentile", () => {
    const calibration = derived(spread(), K, true);

    expect(calibration.relevance.semanticSupport).toBeCloseTo(0.05 + 49 / 1000, 4);
    expect(calibration.relevance.strongSimilarity).toBeCloseTo(0.2 + 74 / 500, 4);
  });

  it("moves the similarity thresholds with the embedder's scale and leaves coverage alone", () => {
    const base = derived(spread(), K, true);
    const shifted = derived(spread(0.5), K, true);

    expect(shifted.relevance.semanticSupport - base.relevance.semanticSupport).toBeCloseTo(0.5, 3);
    expect(shifted.relevance.strongSimilarity - base.relevance.strongSimilarity).toBeCloseTo(0.5, 3);
    expect(shifted.relevance.partialCoverage).toBe(base.relevance.partialCoverage);
    expect(shifted.relevance.strongCoverage).toBe(base.relevance.strongCoverage);
  });

  it("keeps strong coverage above partial coverage and strong similarity above semantic support", () => {
    const flat = Array.from({ length: 40 }, () =>
      measurement({ target: { coverage: 0.5, similarity: 0.1 }, background: { coverage: 0.5, similarity: 0.4 } }),
    );
    const calibration = derived(flat, K, true);

    expect(calibration.relevance.partialCoverage).toBe(0.5);
    expect(calibration.relevance.strongCoverage).toBeCloseTo(0.55, 4);
    expect(calibration.relevance.semanticSupport).toBe(0.4);
    expect(calibration.relevance.strongSimilarity).toBeCloseTo(0.41, 4);
  });

  it("keeps the coverage thresholds within their bounds", () => {
    const none = Array.from({ length: 40 }, () => measurement({ background: { coverage: 0, similarity: 0.2 } }));
    const most = Array.from({ length: 40 }, () => measurement({ background: { coverage: 0.89, similarity: 0.2 } }));

    expect(derived(none, K, true).relevance).toMatchObject({ partialCoverage: 0.05, strongCoverage: 0.1 });
    expect(derived(most, K, true).relevance).toMatchObject({ partialCoverage: 0.89, strongCoverage: 0.94 });
  });

  it("keeps the defaults when the background holds nearly all of each question's words (reworded copies)", () => {
    const copies = Array.from({ length: 40 }, () => measurement({ background: { coverage: 0.95, similarity: 0.9 } }));

    expect(deriveCalibration(copies, K, true)).toMatch(/reworded copies/);
  });

  it("chooses the fusion weight from the measured curve and reports the MRR of each layer", () => {
    const calibration = derived(
      Array.from({ length: 40 }, () => measurement({ scores: L1_BETTER })),
      K,
      true,
    );

    expect(calibration.l0Weight).toBeLessThan(0.5);
    expect(calibration.measured?.mrr).toEqual({ l0: 0.25, l1: 1, fused: 1 });
  });

  it("keeps the default similarity thresholds and weight without L1", () => {
    const l0Only = spread().map((m) => ({
      scores: { l0: m.scores.l0, l1: null },
      target: { coverage: m.target.coverage, similarity: undefined },
      background: { coverage: m.background!.coverage, similarity: undefined },
    }));
    const calibration = derived(l0Only, K, false);

    expect(calibration.l0Weight).toBe(DEFAULT_L0_WEIGHT);
    expect(calibration.relevance.semanticSupport).toBe(RELEVANCE_THRESHOLDS.semanticSupport);
    expect(calibration.relevance.strongSimilarity).toBe(RELEVANCE_THRESHOLDS.strongSimilarity);
    expect(calibration.relevance.partialCoverage).toBeCloseTo(0.79, 4);
    expect(calibration.measured?.similarity).toBeNull();
    expect(calibration.measured?.mrr.l1).toBeNull();
    expect(calibration.note).toBeNull();
  });

  it("leaves similarity out of the judgement, and says so, when too few blocks have a similarity", () => {
    const sparse = spread().map((m, i) => (i < 80 ? { ...m, target: { ...m.target, similarity: undefined } } : m));
    const calibration = derived(sparse, K, true);

    // The statistical embedder's default levels would mean nothing for another embedder's scale.
    expect(calibration.relevance.semanticSupport).toBe(1);
    expect(calibration.relevance.strongSimilarity).toBe(1);
    expect(calibration.note).toMatch(/similarity is not used/);
  });

  it("keeps the default coverage thresholds when too few pseudo-queries have a background", () => {
    const calibration = derived(
      spread().map((m, i) => (i < 80 ? { ...m, background: null } : m)),
      K,
      true,
    );

    expect(calibration.relevance.partialCoverage).toBe(RELEVANCE_THRESHOLDS.partialCoverage);
    expect(calibration.relevance.strongCoverage).toBe(RELEVANCE_THRESHOLDS.strongCoverage);
  });
});
