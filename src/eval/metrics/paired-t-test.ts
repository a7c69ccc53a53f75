import { pairedDifferences, type PairedTestResult } from "./paired-randomization.js";

/** The paired t-test's result. */
export interface PairedTTestResult extends PairedTestResult {
  /** The t statistic; ±Infinity when every difference is the same non-zero value, 0 when all are 0. */
  t: number;
  /** Degrees of freedom, n - 1. */
  df: number;
}

/** Continued fraction of the regularised incomplete beta function (Numerical Recipes' betacf). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    c = 1 + aa / c;
    d = 1 / (Math.abs(d) < tiny ? tiny : d);
    c = Math.abs(c) < tiny ? tiny : c;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    c = 1 + aa / c;
    d = 1 / (Math.abs(d) < tiny ? tiny : d);
    c = Math.abs(c) < tiny ? tiny : c;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return h;
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7). */
function logGamma(x: number): number {
  const g = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = g[0];
  for (let i = 1; i < 9; i++) sum += g[i] / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** The regularised incomplete beta function I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaContinuedFraction(a, b, x)) / a : 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** Two-sided p-value of Student's t with `df` degrees of freedom: P(|T| ≥ |t|). */
export function studentTwoSidedP(t: number, df: number): number {
  if (!Number.isFinite(t)) return 0;
  return incompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/**
 * Paired (dependent-samples) t-test of the mean difference `a - b`, two-sided. Needs at least two
 * pairs for a p-value; with fewer, p is 1. Pure.
 */
export function pairedTTest(a: readonly number[], b: readonly number[]): PairedTTestResult {
  const differences = pairedDifferences(a, b);
  const n = differences.length;
  const meanDifference = n === 0 ? 0 : differences.reduce((sum, d) => sum + d, 0) / n;
  if (n < 2) return { n, meanDifference, pValue: 1, t: 0, df: Math.max(0, n - 1) };
  const variance = differences.reduce((sum, d) => sum + (d - meanDifference) ** 2, 0) / (n - 1);
  const df = n - 1;
  if (variance === 0) {
    return meanDifference === 0 ? { n, meanDifference, pValue: 1, t: 0, df } : { n, meanDifference, pValue: 0, t: Math.sign(meanDifference) * Number.POSITIVE_INFINITY, df };
  }
  const t = meanDifference / Math.sqrt(variance / n);
  return { n, meanDifference, pValue: studentTwoSidedP(t, df), t, df };
}
