import { basename } from "node:path";
import { describeCalibration } from "../../calibration/calibration.js";
import { publishedBaselines } from "../beir/published-baselines.js";
import type { MetricValues } from "../metrics/index.js";
import { pairwiseSignificance } from "../report/pairwise-significance.js";
import type { EvalReport, MetricRecord } from "../report/report-model.js";
import type { QueryRanking, ReportCalibration, ReportRankings } from "../report/report-sections.js";
import type { BeirEvalResult, VariantResult } from "./beir-eval.js";
import { cutText } from "./query-details.js";

/** Display names of the BEIR metrics, in table order. */
export const BEIR_METRICS = { ndcgAt10: "nDCG@10", recallAt10: "Recall@10", recallAt100: "Recall@100", mrrAt10: "MRR@10" } as const;

/** Longest document title kept in a report. */
export const MAX_TITLE_CHARS = 110;

function named(values: MetricValues): MetricRecord {
  return Object.fromEntries(Object.entries(BEIR_METRICS).map(([key, name]) => [name, values[key as keyof MetricValues]]));
}

/**
 * Most relevant documents a report lists per query: the gold list, the rank of each in every
 * variant's run and its title are written per query into results.json and report.html, so a
 * query judged against thousands of documents would otherwise grow both without bound.
 */
export const MAX_GOLD_LISTED = 50;

/**
 * Query id → the relevant document ids (grade above 0) the report lists, in qrels order: all of
 * them up to `max`; past it, those some variant shows (so that every starred cell has its gold
 * line), then the first others, to `max` in all (or more, if the variants show more). Also the
 * totals of the queries whose lists were cut.
 */
export function listedGold(result: BeirEvalResult, max: number = MAX_GOLD_LISTED): { gold: Record<string, string[]>; totals: Record<string, number> } {
  const gold: Record<string, string[]> = {};
  const totals: Record<string, number> = {};
  for (const [queryId, judged] of result.qrels) {
    const relevant = [...judged].filter(([, grade]) => grade > 0).map(([doc]) => doc);
    if (relevant.length <= max) {
      gold[queryId] = relevant;
      continue;
    }
    const shown = new Set(result.variants.flatMap((variant) => (variant.top.get(queryId) ?? []).map((entry) => entry.doc)));
    const first = relevant.filter((doc) => shown.has(doc));
    const rest = relevant.filter((doc) => !shown.has(doc)).slice(0, Math.max(0, max - first.length));
    const kept = new Set([...first, ...rest]);
    gold[queryId] = relevant.filter((doc) => kept.has(doc));
    totals[queryId] = relevant.length;
  }
  return { gold, totals };
}

function variantRankings(variant: VariantResult, gold: Record<string, string[]>): Record<string, QueryRanking> {
  const rankings: Record<string, QueryRanking> = {};
  for (const [queryId, top] of variant.top) {
    const ranked = (variant.run.get(queryId) ?? []).map((doc) => doc.docId);
    const goldRanks = Object.fromEntries((gold[queryId] ?? []).map((doc) => [doc, ranked.indexOf(doc) >= 0 ? ranked.indexOf(doc) + 1 : null]));
    rankings[queryId] = { top, goldRanks };
  }
  return rankings;
}

/** The per-query ranked lists of every variant, the gold documents and the titles of every listed document. */
export function beirRankings(result: BeirEvalResult): ReportRankings {
  const { gold, totals } = listedGold(result);
  const byVariant = Object.fromEntries(result.variants.map((variant) => [variant.name, variantRankings(variant, gold)]));
  const listed = new Set([...Object.values(gold).flat(), ...result.variants.flatMap((variant) => [...variant.top.values()].flatMap((top) => top.map((entry) => entry.doc)))]);
  const titles = Object.fromEntries([...listed].sort().map((doc) => [doc, cutText(result.titles.get(doc) ?? "", MAX_TITLE_CHARS)]));
  const shown = Math.max(0, ...result.variants.flatMap((variant) => [...variant.top.values()].map((top) => top.length)));
  return { shown, gold, ...(Object.keys(totals).length > 0 ? { goldTotals: totals } : {}), titles, byVariant };
}

/** The calibration values the run used, and where they came from. */
export function beirCalibration(result: BeirEvalResult): ReportCalibration {
  const { inEffect } = result;
  const source = inEffect.l0WeightSource === "--l0-weight" ? "--l0-weight (overrides the calibration)" : inEffect.l0WeightSource === "calibration" ? "index-time calibration" : "built-in default";
  const measured = result.calibration.measured;
  return {
    summary: describeCalibration(result.calibration),
    values: {
      "fusion l0Weight": inEffect.l0Weight,
      "l0Weight from": source,
      ...Object.fromEntries(Object.entries(inEffect.relevance).map(([key, value]) => [`relevance ${key}`, value])),
      "calibration source": result.calibration.source,
      "pseudo-queries": result.calibration.pseudoQueries,
      ...(measured ? { "pseudo-query MRR@10 L0": measured.mrr.l0, "pseudo-query MRR@10 fused": measured.mrr.fused, ...(measured.mrr.l1 !== null ? { "pseudo-query MRR@10 L1": measured.mrr.l1 } : {}) } : {}),
    },
  };
}

/** The report model of a BEIR evaluation: metrics, latency, significance, baselines, calibration and ranked lists. */
export function beirReport(result: BeirEvalResult): EvalReport {
  const variants = result.variants.map((variant) => ({
    name: variant.name,
    label: variant.label,
    mean: named(variant.mean),
    perQuery: Object.fromEntries([...variant.perQuery].map(([id, values]) => [id, named(values)])),
    extra: { "p50 ms": variant.latency.p50Ms, "p95 ms": variant.latency.p95Ms, "p99 ms": variant.latency.p99Ms },
    latency: { ...variant.latency, stagesP50Ms: variant.stagesP50Ms },
  }));
  const baselines = publishedBaselines({ name: basename(result.dataset), split: result.split, documents: result.documents, queries: result.queries });
  return {
    title: `lookup-knowledge BEIR eval: ${basename(result.dataset)} (${result.split})`,
    kind: "beir",
    createdAt: new Date().toISOString(),
    corpusFingerprint: result.fingerprint,
    metrics: Object.values(BEIR_METRICS),
    primaryMetric: BEIR_METRICS.ndcgAt10,
    variants,
    queries: result.queryTexts,
    config: { dataset: result.dataset, split: result.split, documents: result.documents, queries: result.queries, indexSeconds: Number(result.indexSeconds.toFixed(1)), ...result.config },
    ...(result.floor ? { latencyFloor: { description: "an empty LangGraph graph with the same four steps (no engine work), invoked in the same process", ...result.floor } } : {}),
    significance: pairwiseSignificance(variants, BEIR_METRICS.ndcgAt10),
    ...(baselines.length > 0 ? { baselines } : {}),
    calibration: beirCalibration(result),
    rankings: beirRankings(result),
  };
}
