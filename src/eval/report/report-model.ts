import type { PublishedBaseline, ReportCalibration, ReportLatency, ReportLatencyFloor, ReportRankings, ReportSignificance } from "./report-sections.js";

export type { PairedComparison, PublishedBaseline, QueryRanking, RankedEntry, ReportCalibration, ReportLatency, ReportLatencyFloor, ReportRankings, ReportSignificance } from "./report-sections.js";

/** Metric values by metric name ("nDCG@10", "Recall@10", ...). */
export type MetricRecord = Record<string, number>;

/** One variant's scores in a report. */
export interface ReportVariant {
  /** The variant's name (`L0`, `L1`, `L0+L1`). */
  name: string;
  /** Its label in tables. */
  label: string;
  /** Mean of each metric over the queries. */
  mean: MetricRecord;
  /** Query id → that query's metrics. */
  perQuery: Record<string, MetricRecord>;
  /** Extra figures shown beside the metrics (latency, counts). */
  extra?: Record<string, number | string>;
  /** Per-query lookup latency, when the run measured it. */
  latency?: ReportLatency;
}

/** Everything an eval run reports; written as JSON and rendered as HTML. */
export interface EvalReport {
  /** The report's heading. */
  title: string;
  /** Which harness produced it. */
  kind: "beir" | "promptfoo";
  /** When it was made (ISO 8601). */
  createdAt: string;
  /** Fingerprint of the indexed corpus and settings; reports with different fingerprints are not comparable. */
  corpusFingerprint: string;
  /** Metric names in display order. */
  metrics: string[];
  /** Metric used for per-query wins and losses. */
  primaryMetric: string;
  /** Every variant's scores, in run order. */
  variants: ReportVariant[];
  /** Query id → query text, for the per-query tables. */
  queries: Record<string, string>;
  /** The run's settings (dataset or golden set, depth, calibration, ...), as recorded. */
  config: Record<string, unknown>;
  /** The graph's own cost per lookup, measured beside the variants. */
  latencyFloor?: ReportLatencyFloor;
  /** Paired tests between the variants on the primary metric. */
  significance?: ReportSignificance;
  /** Published figures on the same dataset and split, when it is a known one. */
  baselines?: PublishedBaseline[];
  /** The calibration values in effect. */
  calibration?: ReportCalibration;
  /** Per-query ranked lists with the relevant documents marked. */
  rankings?: ReportRankings;
}

/** A query on which one variant beat another on the primary metric. */
export interface QueryDelta {
  queryId: string;
  a: number;
  b: number;
  delta: number;
}

/** Per-query comparison of variant `a` against variant `b`. */
export interface WinsLosses {
  a: string;
  b: string;
  wins: QueryDelta[];
  losses: QueryDelta[];
  ties: number;
}

/** Compares two variants query by query on `metric`; wins and losses sorted by size. */
export function compareVariants(a: ReportVariant, b: ReportVariant, metric: string): WinsLosses {
  const wins: QueryDelta[] = [];
  const losses: QueryDelta[] = [];
  let ties = 0;
  for (const [queryId, scores] of Object.entries(a.perQuery)) {
    const other = b.perQuery[queryId];
    if (other === undefined) continue;
    const delta = (scores[metric] ?? 0) - (other[metric] ?? 0);
    const entry = { queryId, a: scores[metric] ?? 0, b: other[metric] ?? 0, delta };
    if (Math.abs(delta) < 1e-9) ties++;
    else (delta > 0 ? wins : losses).push(entry);
  }
  wins.sort((x, y) => y.delta - x.delta || x.queryId.localeCompare(y.queryId));
  losses.sort((x, y) => x.delta - y.delta || x.queryId.localeCompare(y.queryId));
  return { a: a.name, b: b.name, wins, losses, ties };
}
