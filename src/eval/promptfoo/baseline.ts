import type { EvalReport } from "../report/report-model.js";
import { GATED_METRICS } from "./summarize-results.js";

/** `eval/baseline.json`: the committed floor of every gated metric, per variant. */
export interface Baseline {
  /** Fingerprint of the corpus the baseline was measured on. */
  corpusFingerprint: string;
  /** A metric may fall this far below its baseline before the suite fails (float noise only: runs are deterministic). */
  tolerance: number;
  variants: Record<string, Record<string, number>>;
}

/** One metric below its baseline. */
export interface BaselineViolation {
  variant: string;
  metric: string;
  value: number;
  baseline: number;
}

/** Every gated metric of every variant that fell below its committed baseline (pure). */
export function checkBaseline(report: EvalReport, baseline: Baseline): BaselineViolation[] {
  const violations: BaselineViolation[] = [];
  for (const [variant, metrics] of Object.entries(baseline.variants)) {
    const measured = report.variants.find((v) => v.name === variant);
    for (const [metric, floor] of Object.entries(metrics)) {
      const value = measured?.mean[metric] ?? Number.NaN;
      if (!(value >= floor - baseline.tolerance)) violations.push({ variant, metric, value, baseline: floor });
    }
  }
  return violations;
}

/** One line per violation, naming the metric and its baseline. */
export function describeViolation(v: BaselineViolation): string {
  const value = Number.isNaN(v.value) ? "missing" : v.value.toFixed(4);
  return `${v.variant} ${v.metric} = ${value} is below its baseline ${v.baseline.toFixed(4)}`;
}

/** A baseline holding the current means of the gated metrics (for `npm run eval -- --update-baseline`). */
export function baselineFrom(report: EvalReport, tolerance = 0.0005): Baseline {
  return {
    corpusFingerprint: report.corpusFingerprint,
    tolerance,
    variants: Object.fromEntries(
      report.variants.map((variant) => [
        variant.name,
        Object.fromEntries(GATED_METRICS.filter((metric) => metric in variant.mean).map((metric) => [metric, Math.floor(variant.mean[metric] * 1e4) / 1e4])),
      ]),
    ),
  };
}
