import { LookupKnowledgeError } from "../../errors.js";
import { mulberry32 } from "../../seeded-random.js";

/** Options of {@link pairedRandomizationTest}. */
export interface PairedRandomizationOptions {
  /** Random sign assignments drawn when there are more than that many exact ones. @default 10_000 */
  permutations?: number;
  /** Seed of the PRNG (mulberry32), so that a report is reproducible. @default 42 */
  seed?: number;
}

/** What a paired test found for `a - b`. */
export interface PairedTestResult {
  /** Number of pairs. */
  n: number;
  /** Mean of `a[i] - b[i]`. */
  meanDifference: number;
  /** Two-sided p-value of "no difference". */
  pValue: number;
}

/** The randomisation test's result, with how the null distribution was built. */
export interface PairedRandomizationResult extends PairedTestResult {
  /** `exact`: every one of the 2^n sign assignments; `sampled`: `permutations` random ones. */
  method: "exact" | "sampled";
  /** Sign assignments counted. */
  assignments: number;
}

/** The pairwise differences `a[i] - b[i]`. @throws LookupKnowledgeError `INVALID_OPTION` when the lengths differ or a value is not finite. */
export function pairedDifferences(a: readonly number[], b: readonly number[]): number[] {
  if (a.length !== b.length) throw new LookupKnowledgeError("INVALID_OPTION", `a paired test needs two lists of the same length, got ${a.length} and ${b.length}.`);
  return a.map((value, i) => {
    const difference = value - b[i];
    if (!Number.isFinite(difference)) throw new LookupKnowledgeError("INVALID_OPTION", `a paired test needs finite numbers, got ${String(value)} and ${String(b[i])} at position ${i}.`);
    return difference;
  });
}

// Differences this close to the observed one count as "as extreme": floating-point sums of the
// same values in another order differ in the last bits.
const EPSILON = 1e-12;

/**
 * Two-sided paired randomisation (sign-flip permutation) test of the mean difference `a - b`:
 * under "no difference" each pair's sign is exchangeable. Exact over all 2^n assignments when
 * that is at most `permutations`; otherwise `permutations` random assignments from a seeded
 * PRNG, with p = (hits + 1) / (permutations + 1) (the observed assignment counts as one).
 * Pure: the same inputs and seed give the same p.
 */
export function pairedRandomizationTest(a: readonly number[], b: readonly number[], options: PairedRandomizationOptions = {}): PairedRandomizationResult {
  const permutations = options.permutations ?? 10_000;
  const differences = pairedDifferences(a, b);
  const n = differences.length;
  if (n === 0) return { n, meanDifference: 0, pValue: 1, method: "exact", assignments: 0 };
  const observed = Math.abs(differences.reduce((sum, d) => sum + d, 0));
  const meanDifference = differences.reduce((sum, d) => sum + d, 0) / n;
  if (n <= 20 && 2 ** n <= permutations) {
    let hits = 0;
    for (let mask = 0; mask < 2 ** n; mask++) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += mask & (1 << i) ? -differences[i] : differences[i];
      if (Math.abs(sum) >= observed - EPSILON) hits++;
    }
    return { n, meanDifference, pValue: hits / 2 ** n, method: "exact", assignments: 2 ** n };
  }
  const random = mulberry32(options.seed ?? 42);
  let hits = 0;
  for (let p = 0; p < permutations; p++) {
    let sum = 0;
    for (const d of differences) sum += random() < 0.5 ? -d : d;
    if (Math.abs(sum) >= observed - EPSILON) hits++;
  }
  return { n, meanDifference, pValue: (hits + 1) / (permutations + 1), method: "sampled", assignments: permutations };
}
