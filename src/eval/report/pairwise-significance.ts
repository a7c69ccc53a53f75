import { pairedRandomizationTest } from "../metrics/paired-randomization.js";
import { pairedTTest } from "../metrics/paired-t-test.js";
import type { ReportVariant } from "./report-model.js";
import type { PairedComparison, ReportSignificance } from "./report-sections.js";

/** Options of {@link pairwiseSignificance}. @see pairedRandomizationTest */
export interface PairwiseSignificanceOptions {
  /** @default 10_000 */
  permutations?: number;
  /** @default 42 */
  seed?: number;
  /** The variant compared first with every other one. @default "L0+L1" when present */
  reference?: string;
}

/** Pairs `a`'s and `b`'s per-query values of `metric` over the queries both have a finite value for. */
function paired(a: ReportVariant, b: ReportVariant, metric: string): [number[], number[]] {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [queryId, scores] of Object.entries(a.perQuery)) {
    const x = scores[metric];
    const y = b.perQuery[queryId]?.[metric];
    if (Number.isFinite(x) && y !== undefined && Number.isFinite(y)) {
      xs.push(x);
      ys.push(y);
    }
  }
  return [xs, ys];
}

/** Both paired tests of two variants on `metric`. */
export function compareVariantsPaired(a: ReportVariant, b: ReportVariant, metric: string, options: PairwiseSignificanceOptions = {}): PairedComparison {
  const [xs, ys] = paired(a, b, metric);
  const randomization = pairedRandomizationTest(xs, ys, options);
  const tTest = pairedTTest(xs, ys);
  const mean = (values: number[]) => (values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length);
  return { a: a.name, b: b.name, n: xs.length, meanA: mean(xs), meanB: mean(ys), meanDifference: randomization.meanDifference, randomizationP: randomization.pValue, tTestP: tTest.pValue, t: tTest.t };
}

/**
 * Every pair of variants compared on `metric` with a paired randomisation test and a paired
 * t-test: the reference against each other variant first, then the remaining pairs in order. Pure.
 */
export function pairwiseSignificance(variants: readonly ReportVariant[], metric: string, options: PairwiseSignificanceOptions = {}): ReportSignificance {
  const permutations = options.permutations ?? 10_000;
  const seed = options.seed ?? 42;
  const referenceName = options.reference ?? "L0+L1";
  const reference = variants.find((variant) => variant.name === referenceName);
  const ordered = reference ? [reference, ...variants.filter((variant) => variant !== reference)] : [...variants];
  const comparisons: PairedComparison[] = [];
  for (let i = 0; i < ordered.length; i++) {
    for (let j = i + 1; j < ordered.length; j++) comparisons.push(compareVariantsPaired(ordered[i], ordered[j], metric, { permutations, seed }));
  }
  return { metric, permutations, seed, comparisons };
}
