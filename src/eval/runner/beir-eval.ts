import type { CorpusCalibration } from "../../calibration/calibration.js";
import { resolveRetrievalOptions } from "../../graph/resolve-options.js";
import { createRetrievalGraph } from "../../graph/retrieval-graph.js";
import type { RelevanceThresholds } from "../../ranking/relevance.js";
import type { BuildProgress } from "../../knowledge-base/build-options.js";
import { KnowledgeBase } from "../../knowledge-base/knowledge-base.js";
import { loadBeirDataset, type UnknownJudgementLimits, type UnknownJudgements } from "../beir/index.js";
import { beirDocumentToChunk } from "../beir/to-chunks.js";
import { evaluateRun, type MetricValues, type Qrels, type Run } from "../metrics/index.js";
import type { RankedEntry } from "../report/report-sections.js";
import { VARIANTS, type VariantName } from "../variants.js";
import { measureGraphFloor } from "./graph-floor.js";
import { summarizeLatency, type LatencySummary } from "../metrics/latency.js";
import { stageMedians, topEntries } from "./query-details.js";
import { runQueries } from "./run-queries.js";

/** Options of {@link runBeirEval}. */
export interface BeirEvalOptions {
  /** Folder with corpus.jsonl, queries.jsonl and qrels.tsv. */
  datasetDir: string;
  /** Read queries and qrels from this subfolder (e.g. "train"). @default the top-level test split */
  split?: string;
  /** Variants to compare. @default ["L0", "L1", "L0+L1"] */
  variants?: VariantName[];
  /** Sources kept per query (the run depth). @default 100 */
  depth?: number;
  /** Weight of L0 in the fused score. @default the index's calibrated weight (the tool's default) */
  l0Weight?: number;
  /** Documents kept per query for the report's ranked lists. @default 10 */
  shown?: number;
  /** Lookups of an empty four-step graph to measure LangGraph's own cost; 0 skips it. @default 300 */
  floorRuns?: number;
  /** Limits on qrels judgements naming documents or queries the dataset lacks. @default more than 1,000, or more than 10%, are refused */
  unknownJudgements?: UnknownJudgementLimits;
  /** Receives the index build's progress, then each variant's queries done. @default undefined */
  onProgress?: (event: BuildProgress | { phase: "query"; variant: VariantName; done: number; total: number }) => void;
}

/** What one variant scored and how fast it ran. */
export interface VariantResult {
  /** The variant. */
  name: VariantName;
  /** Its label in reports. */
  label: string;
  /** Mean of each metric over the evaluated queries. */
  mean: MetricValues;
  /** Query id → its metrics. */
  perQuery: Map<string, MetricValues>;
  /** Queries in the mean (see {@link RunEvaluation}). */
  evaluatedQueries: number;
  /** The run, `depth` documents per query. */
  run: Run;
  /** Per-lookup latency. */
  latency: LatencySummary;
  /** Median milliseconds per lookup stage (`l0`, `l1`, `merge`, ...). */
  stagesP50Ms: Record<string, number>;
  /** Query id → the first `shown` documents with their hit reasons. */
  top: Map<string, RankedEntry[]>;
}

/** The retrieval settings a run used, after the calibration and the options were applied. */
export interface SettingsInEffect {
  /** Weight of L0 in the fused score. */
  l0Weight: number;
  /** Where the weight came from. */
  l0WeightSource: "--l0-weight" | "calibration" | "defaults";
  /** The relevance judgement's thresholds. */
  relevance: RelevanceThresholds;
}

/** A whole BEIR evaluation: the dataset, the index, and every variant's scores. */
export interface BeirEvalResult {
  /** The dataset folder, as given. */
  dataset: string;
  /** The split evaluated. */
  split: string;
  /** Documents indexed. */
  documents: number;
  /** Queries run. */
  queries: number;
  /** Query id → text. */
  queryTexts: Record<string, string>;
  /** Document id → title, for every document. */
  titles: Map<string, string>;
  /** The split's judgements. */
  qrels: Qrels;
  /** Judgements of the qrels naming a document or query the dataset lacks (within the limits). */
  unknownJudgements: UnknownJudgements;
  /** Queries longer than a lookup takes (1,000 characters), each run on its head. */
  cutQueries: number;
  /** The index's fingerprint (corpus and settings). */
  fingerprint: string;
  /** The index-time calibration (fusion weight unless `l0Weight` is given, relevance thresholds). */
  calibration: CorpusCalibration;
  /** The retrieval settings the run used. */
  inEffect: SettingsInEffect;
  /** Seconds to build the index. */
  indexSeconds: number;
  /** The settings recorded in the report (depth, fusion weight, relevance, index settings, calibration). */
  config: Record<string, unknown>;
  /** Every variant's scores and timings, in the order of `variants`. */
  variants: VariantResult[];
  /** LangGraph's own cost per lookup; null when `floorRuns` is 0. */
  floor: LatencySummary | null;
}

/**
 * Indexes a BEIR dataset once and runs every query of the split through the retrieval subgraph,
 * once per variant, scoring each run against the qrels and timing each lookup.
 */
export async function runBeirEval(options: BeirEvalOptions): Promise<BeirEvalResult> {
  const variants = options.variants ?? ["L0", "L1", "L0+L1"];
  const depth = options.depth ?? 100;
  const shown = options.shown ?? 10;
  const dataset = await loadBeirDataset(options.datasetDir, options.split, options.unknownJudgements);
  const started = performance.now();
  const kb = await KnowledgeBase.fromChunks(dataset.corpus.map(beirDocumentToChunk), { onProgress: options.onProgress });
  const indexSeconds = (performance.now() - started) / 1000;
  const settings = resolveRetrievalOptions({ fusion: { l0Weight: options.l0Weight } }, kb);
  const inEffect: SettingsInEffect = {
    l0Weight: settings.fusion.l0Weight,
    l0WeightSource: options.l0Weight !== undefined ? "--l0-weight" : kb.calibration.source === "measured" ? "calibration" : "defaults",
    relevance: settings.relevance,
  };
  const results: VariantResult[] = [];
  let cutQueries = 0;
  for (const name of variants) {
    const { l0, l1 } = VARIANTS[name].options;
    const graph = createRetrievalGraph({ knowledgeBase: kb, tracePath: null, maxLimit: depth, l0: { ...l0, k: depth }, l1: { ...l1, k: depth }, fusion: { l0Weight: options.l0Weight } });
    const queries = await runQueries(graph, dataset.queries, depth, (done) =>
      options.onProgress?.({ phase: "query", variant: name, done, total: dataset.queries.length }),
    );
    cutQueries = queries.cutQueries;
    const evaluation = evaluateRun(queries.run, dataset.qrels);
    results.push({
      name,
      label: VARIANTS[name].label,
      mean: evaluation.mean,
      perQuery: evaluation.perQuery,
      evaluatedQueries: evaluation.evaluatedQueries,
      run: queries.run,
      latency: summarizeLatency(queries.latenciesMs),
      stagesP50Ms: stageMedians(queries.results.values()),
      top: new Map([...queries.results].map(([id, result]) => [id, topEntries(result, shown)])),
    });
  }
  const floorRuns = options.floorRuns ?? 300;
  return {
    dataset: options.datasetDir,
    split: options.split ?? "test",
    documents: kb.chunks.length,
    queries: dataset.queries.length,
    queryTexts: Object.fromEntries(dataset.queries.map((query) => [query.id, query.text])),
    titles: new Map(dataset.corpus.map((document) => [document.id, document.title])),
    qrels: dataset.qrels,
    unknownJudgements: dataset.unknownJudgements,
    cutQueries,
    fingerprint: kb.fingerprint,
    calibration: kb.calibration,
    inEffect,
    indexSeconds,
    config: { depth, l0Weight: inEffect.l0Weight, l0WeightSource: inEffect.l0WeightSource, relevance: inEffect.relevance, settings: kb.settings, calibration: kb.calibration },
    variants: results,
    floor: floorRuns > 0 ? await measureGraphFloor(floorRuns) : null,
  };
}
