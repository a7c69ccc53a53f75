import { describe, expect, it } from "vitest";
import {
  fusedRankOfTarget,
  meanReciprocalRank,
  type LayerScores,
  type PseudoQueryScores,
} from "../../src/ranking/fused-rank.js";

const K = 20;

function layer(others: [number, number][], target: number | undefined): LayerScores {
  return { others, target };
}

/** A pseudo-query whose target is at `rank` (1 = first) of an L0-only list of `rank` entries. */
function l0RankedAt(rank: number): PseudoQueryScores {
  const others = Array.from({ length: rank - 1 }, (_, i): [number, number] => [i, 100 - i]);
  return { l0: layer([...others, [rank, 0]], 50 - rank), l1: null };
}

describe("fusedRankOfTarget", () => {
  it("puts the target first when both layers rank it first", () => {
    const scores = {
      l0: layer(
        [
          [1, 5],
          [2, 3],
        ],
        10,
      ),
      l1: layer(
        [
          [1, 0.5],
          [2, 0.3],
        ],
        0.9,
      ),
    };

    for (const weight of [0, 0.5, 0.8, 1]) expect(fusedRankOfTarget(scores, weight, K)).toBe(1);
  });

  it("ranks a target only L0 found by L0 alone at weight 1 and below every L1 hit at weight 0", () => {
    const scores = {
      l0: layer(
        [
          [1, 5],
          [2, 3],
        ],
        10,
      ),
      l1: layer(
        [
          [1, 0.9],
          [2, 0.8],
        ],
        undefined,
      ),
    };

    expect(fusedRankOfTarget(scores, 1, K)).toBe(1);
    expect(fusedRankOfTarget(scores, 0, K)).toBe(3);
  });

  it("gives Infinity when neither list holds the target", () => {
    expect(fusedRankOfTarget({ l0: layer([[1, 5]], undefined), l1: layer([[1, 0.5]], undefined) }, 0.8, K)).toBe(
      Infinity,
    );
  });

  it("gives Infinity when the target scores below the top k of its only list", () => {
    expect(
      fusedRankOfTarget(
        {
          l0: layer(
            [
              [1, 5],
              [2, 4],
            ],
            1,
          ),
          l1: null,
        },
        0.8,
        2,
      ),
    ).toBe(Infinity);
  });

  it("counts a tie against the target", () => {
    expect(fusedRankOfTarget({ l0: layer([[1, 5]], 5), l1: null }, 0.8, K)).toBe(2);
    expect(
      fusedRankOfTarget(
        {
          l0: layer(
            [
              [1, 9],
              [2, 5],
            ],
            5,
          ),
          l1: null,
        },
        1,
        K,
      ),
    ).toBe(3);
  });

  it("ranks with L0 alone when there is no dense layer, whatever the weight", () => {
    const scores: PseudoQueryScores = {
      l0: layer(
        [
          [1, 9],
          [2, 3],
        ],
        6,
      ),
      l1: null,
    };

    for (const weight of [0.2, 0.5, 0.8, 1]) expect(fusedRankOfTarget(scores, weight, K)).toBe(2);
  });

  it("ranks with L0 alone when the dense layer returned nothing", () => {
    expect(
      fusedRankOfTarget(
        {
          l0: layer(
            [
              [1, 9],
              [2, 3],
            ],
            6,
          ),
          l1: layer([], undefined),
        },
        0.5,
        K,
      ),
    ).toBe(2);
  });
});

describe("meanReciprocalRank", () => {
  it("averages the reciprocal ranks, a missing target counting 0", () => {
    const all = [l0RankedAt(1), l0RankedAt(2), { l0: layer([[1, 5]], undefined), l1: null }];

    expect(meanReciprocalRank(all, 0.8, K)).toBeCloseTo((1 + 1 / 2 + 0) / 3, 10);
  });

  it("counts a target at rank 10 and ignores one beyond it", () => {
    expect(fusedRankOfTarget(l0RankedAt(10), 1, K)).toBe(10);
    expect(fusedRankOfTarget(l0RankedAt(11), 1, K)).toBe(11);

    expect(meanReciprocalRank([l0RankedAt(10)], 1, K)).toBeCloseTo(0.1, 10);
    expect(meanReciprocalRank([l0RankedAt(11)], 1, K)).toBe(0);
  });

  it("is 0 for no pseudo-queries", () => {
    expect(meanReciprocalRank([], 0.8, K)).toBe(0);
  });
});
