import { DEFAULT_L0_WEIGHT } from "../ranking/evidence.js";
import { RELEVANCE_THRESHOLDS } from "../ranking/relevance.js";
import type { CorpusCalibration, SignalQuantiles } from "./calibration.js";
import { meanReciprocalRank } from "../ranking/fused-rank.js";
import type { PseudoQueryMeasurement } from "./measure-pseudo-queries.js";

/** Fewest measured pseudo-queries a calibration is derived from; fewer keep the defaults. */
export const MIN_PSEUDO_QUERIES = 30;

/**
 * MRR@10 (the best of L0, L1 and fused) below which the measurements say nothing: the
 * pseudo-queries hardly ever find their own chunk first, which happens when other files hold
 * reworded copies of it (the background is then as good as the target). Such a corpus keeps the
 * defaults. The sample corpus measures 0.65, SciFact 0.76, the benchmark's replicated 100k
 * corpus (each abstract in 19 perturbed copies) 0.11.
 */
export const MIN_FUSED_MRR = 0.25;

/**
 * Background coverage (80th percentile) from which the best blocks outside each question's file
 * hold nearly all of its words: copies again, whatever the MRR.
 */
export const MAX_BACKGROUND_COVERAGE = 0.9;

/**
 * How strongly the fusion weight is pulled toward {@link DEFAULT_L0_WEIGHT}: the chosen weight
 * maximises `MRR(w) − FUSION_SHRINKAGE × (w − 0.8)²`. Pseudo-queries have their sentence held out
 * of their own chunk, which leaves them fewer shared words with it than real questions have: on
 * the SciFact train claims and on the sample corpus's golden questions, whose best weights are
 * 0.75-0.8, they put the best weight at 0 to 0.5 with a flat curve. So a weight moves away from
 * the prior only when one layer is clearly better on this corpus (a gain in MRR larger than the
 * squared move). Chosen on the SciFact train split.
 */
export const FUSION_SHRINKAGE = 1;

/** Weights tried, 0 to 1 in steps of 0.05. */
const WEIGHTS = Array.from({ length: 21 }, (_, i) => i / 20);

/** The q-quantile of `values` (nearest rank); NaN for none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

function quantiles(values: readonly number[]): SignalQuantiles {
  const round = (value: number) => Math.round(value * 1e4) / 1e4;
  return {
    p25: round(quantile(values, 0.25)),
    p50: round(quantile(values, 0.5)),
    p85: round(quantile(values, 0.85)),
    p95: round(quantile(values, 0.95)),
  };
}

/** The weight {@link FUSION_SHRINKAGE} picks from the measured curve. */
export function chooseL0Weight(measurements: readonly PseudoQueryMeasurement[], k: number): number {
  const scores = measurements.map((m) => m.scores);
  let best = DEFAULT_L0_WEIGHT;
  let bestValue = -Infinity;
  for (const w of WEIGHTS) {
    const value = meanReciprocalRank(scores, w, k) - FUSION_SHRINKAGE * (w - DEFAULT_L0_WEIGHT) ** 2;
    if (value > bestValue + 1e-12) [best, bestValue] = [w, value];
  }
  return best;
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/**
 * Derives fusion weight and relevance thresholds from measured pseudo-queries. The background is
 * the best block outside the question's own file: what the top block looks like when the corpus
 * lacks the answer. The target is the question's own chunk, its sentence held out: a right answer.
 * - `partialCoverage` = the background's 80th percentile of coverage, `strongCoverage` its 90th;
 * - `semanticSupport` = the background's median similarity, `strongSimilarity` the target's 75th
 *   percentile (as close as the closest quarter of right answers).
 * So they follow the embedder's scale (OpenAI-style cosines sit at 0.7-0.9 for everything) and
 * the corpus's vocabulary. The levels were chosen on the golden set's tuning half.
 * @returns the calibration, or why the defaults stay (too few measurements, {@link MIN_FUSED_MRR}).
 */
export function deriveCalibration(
  measurements: readonly PseudoQueryMeasurement[],
  k: number,
  hasL1: boolean,
): CorpusCalibration | string {
  if (measurements.length < MIN_PSEUDO_QUERIES)
    return `only ${measurements.length} pseudo-queries could be measured; calibration needs ${MIN_PSEUDO_QUERIES}`;
  const scores = measurements.map((m) => m.scores);
  const bestMrr = Math.max(
    meanReciprocalRank(scores, DEFAULT_L0_WEIGHT, k),
    meanReciprocalRank(scores, 1, k),
    hasL1 ? meanReciprocalRank(scores, 0, k) : 0,
  );
  if (bestMrr < MIN_FUSED_MRR) {
    return `the pseudo-queries found their own chunk first too rarely (MRR@10 ${bestMrr.toFixed(3)} < ${MIN_FUSED_MRR}): near-copies of the chunks, or chunks whose sentences share too little with the rest of their text, leave right answers indistinguishable from background`;
  }
  const background = measurements.flatMap((m) => (m.background ? [m.background] : []));
  if (
    background.length >= MIN_PSEUDO_QUERIES &&
    quantile(
      background.map((b) => b.coverage),
      0.8,
    ) >= MAX_BACKGROUND_COVERAGE
  ) {
    return `the best block outside each question's file holds nearly all of its words (80th percentile of coverage at least ${MAX_BACKGROUND_COVERAGE}): reworded copies of the chunks leave right answers indistinguishable from background`;
  }
  const targetCoverage = measurements.map((m) => m.target.coverage);
  const backgroundCoverage = background.map((b) => b.coverage);
  const targetSimilarity = measurements.flatMap((m) =>
    m.target.similarity !== undefined ? [m.target.similarity] : [],
  );
  const backgroundSimilarity = background.flatMap((b) => (b.similarity !== undefined ? [b.similarity] : []));
  const similarityMeasured =
    hasL1 && targetSimilarity.length >= MIN_PSEUDO_QUERIES && backgroundSimilarity.length >= MIN_PSEUDO_QUERIES;
  const l0Weight = hasL1 ? chooseL0Weight(measurements, k) : DEFAULT_L0_WEIGHT;
  const d = RELEVANCE_THRESHOLDS;
  const coverageMeasured = backgroundCoverage.length >= MIN_PSEUDO_QUERIES;
  const partialCoverage = coverageMeasured ? clamp(quantile(backgroundCoverage, 0.8), 0.05, 0.9) : d.partialCoverage;
  const strongCoverage = coverageMeasured
    ? clamp(Math.max(quantile(backgroundCoverage, 0.9), partialCoverage + 0.05), 0.1, 0.95)
    : d.strongCoverage;
  // Similarity not measured with a dense layer: nothing says what it means here, so it is not used.
  const unmeasured = hasL1 ? 1 : null;
  const semanticSupport = similarityMeasured
    ? clamp(quantile(backgroundSimilarity, 0.5), -1, 0.99)
    : (unmeasured ?? d.semanticSupport);
  const strongSimilarity = similarityMeasured
    ? clamp(Math.max(quantile(targetSimilarity, 0.75), semanticSupport + 0.01), -1, 1)
    : (unmeasured ?? d.strongSimilarity);
  const round = (value: number) => Math.round(value * 1e4) / 1e4;
  return {
    source: "measured",
    note:
      hasL1 && !similarityMeasured
        ? "too few blocks to compare similarities with: similarity is not used in the relevance judgement"
        : null,
    pseudoQueries: measurements.length,
    l0Weight,
    relevance: {
      partialCoverage: round(partialCoverage),
      strongCoverage: round(strongCoverage),
      semanticSupport: round(semanticSupport),
      strongSimilarity: round(strongSimilarity),
    },
    measured: {
      mrr: {
        l0: round(meanReciprocalRank(scores, 1, k)),
        l1: hasL1 ? round(meanReciprocalRank(scores, 0, k)) : null,
        fused: round(meanReciprocalRank(scores, l0Weight, k)),
      },
      coverage: { target: quantiles(targetCoverage), background: quantiles(backgroundCoverage) },
      similarity: similarityMeasured
        ? { target: quantiles(targetSimilarity), background: quantiles(backgroundSimilarity) }
        : null,
    },
  };
}
