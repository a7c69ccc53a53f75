import type { LatencySummary } from "../metrics/latency.js";

/** Per-query latency of a variant as the report shows it. */
export interface ReportLatency extends LatencySummary {
  /** Median milliseconds of each stage of the lookup (`l0`, `l1`, `merge`), from the lookups' own timings. */
  stagesP50Ms?: Record<string, number>;
}

/** The cost of the graph machinery alone, measured in the same process. */
export interface ReportLatencyFloor extends LatencySummary {
  /** What was measured, in one sentence. */
  description: string;
}

/** One document of a ranked list. */
export interface RankedEntry {
  /** Document id. */
  doc: string;
  /** The rank score the tool gave it. */
  score: number;
  /** Its hit reasons joined with "; ", cut to a readable length. */
  reasons: string;
}

/** What one variant returned for one query. */
export interface QueryRanking {
  /** The first documents, best first. */
  top: RankedEntry[];
  /** Every listed relevant document (see {@link ReportRankings.gold}) → its 1-based rank in the whole run, or null when the run lacks it. */
  goldRanks: Record<string, number | null>;
}

/** Per-query ranked lists of every variant, with the relevant documents. */
export interface ReportRankings {
  /** How many documents `top` holds per query. */
  shown: number;
  /**
   * Query id → its relevant documents (grade above 0): all of them, or, for a query with more than
   * the report lists, those in some variant's `top` and then the first others in qrels order.
   */
  gold: Record<string, string[]>;
  /** Query id → how many relevant documents it has, for the queries whose `gold` list was cut. */
  goldTotals?: Record<string, number>;
  /** Document id → title (cut), for every document listed. */
  titles: Record<string, string>;
  /** Variant name → query id → ranking. */
  byVariant: Record<string, Record<string, QueryRanking>>;
}

/** A paired comparison of two variants on one metric, query by query. */
export interface PairedComparison {
  /** The first variant's name. */
  a: string;
  /** The second variant's name. */
  b: string;
  /** Queries both variants were scored on. */
  n: number;
  /** Mean of `a` over the paired queries. */
  meanA: number;
  /** Mean of `b` over the paired queries. */
  meanB: number;
  /** Mean of a - b over the paired queries. */
  meanDifference: number;
  /** Two-sided p-value of the paired randomisation (sign-flip) test. */
  randomizationP: number;
  /** Two-sided p-value of the paired t-test. */
  tTestP: number;
  /** The paired t statistic. */
  t: number;
}

/** The significance tests between variants. */
export interface ReportSignificance {
  /** The metric compared (the report's primary metric). */
  metric: string;
  /** Random sign assignments of the randomisation test (exact enumeration below 2^n ≤ this). */
  permutations: number;
  /** Seed of the randomisation test's PRNG. */
  seed: number;
  /** One comparison per pair of variants. */
  comparisons: PairedComparison[];
}

/** A published figure on the same dataset and split. */
export interface PublishedBaseline {
  /** The system measured (BM25, a dense model, ...). */
  system: string;
  /** Where the figure was published. */
  source: string;
  /** Metric name ("nDCG@10") → value. */
  metrics: Record<string, number>;
}

/** The calibration values a run used. */
export interface ReportCalibration {
  /** One line: where the values come from. */
  summary: string;
  /** Setting name → value in effect during the run. */
  values: Record<string, number | string>;
}
