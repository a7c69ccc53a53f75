import type { CorpusCalibration } from "../../calibration/calibration.js";
import { createRetrievalGraph } from "../../graph/retrieval-graph.js";
import type { BuildProgress } from "../../knowledge-base/build-options.js";
import { KnowledgeBase } from "../../knowledge-base/knowledge-base.js";
import { loadBeirDataset } from "../beir/index.js";
import { beirDocumentToChunk } from "../beir/to-chunks.js";
import { evaluateRun, type MetricValues, type Run } from "../metrics/index.js";
import { VARIANTS, type VariantName } from "../variants.js";
import { percentile, runQueries } from "./run-queries.js";

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
  onProgress?: (event: BuildProgress | { phase: "query"; variant: VariantName; done: number; total: number }) => void;
}

/** What one variant scored. */
export interface VariantResult {
  name: VariantName;
  label: string;
  mean: MetricValues;
  perQuery: Map<string, MetricValues>;
  evaluatedQueries: number;
  run: Run;
  p50Ms: number;
  p95Ms: number;
}

/** A whole BEIR evaluation: the dataset, the index, and every variant's scores. */
export interface BeirEvalResult {
  dataset: string;
  split: string;
  documents: number;
  queries: number;
  /** Query id → text. */
  queryTexts: Record<string, string>;
  fingerprint: string;
  /** The index-time calibration the tool used (fusion weight unless `l0Weight` is given, relevance thresholds). */
  calibration: CorpusCalibration;
  indexSeconds: number;
  config: Record<string, unknown>;
  variants: VariantResult[];
}

/**
 * Indexes a BEIR dataset once and runs every query of the split through the retrieval subgraph,
 * once per variant, scoring each run against the qrels.
 */
export async function runBeirEval(options: BeirEvalOptions): Promise<BeirEvalResult> {
  const variants = options.variants ?? ["L0", "L1", "L0+L1"];
  const depth = options.depth ?? 100;
  const dataset = await loadBeirDataset(options.datasetDir, options.split);
  const started = performance.now();
  const kb = await KnowledgeBase.fromChunks(dataset.corpus.map(beirDocumentToChunk), { onProgress: options.onProgress });
  const indexSeconds = (performance.now() - started) / 1000;
  const results: VariantResult[] = [];
  for (const name of variants) {
    const { l0, l1 } = VARIANTS[name].options;
    const graph = createRetrievalGraph({ knowledgeBase: kb, tracePath: null, maxLimit: depth, l0: { ...l0, k: depth }, l1: { ...l1, k: depth }, fusion: { l0Weight: options.l0Weight } });
    const queries = await runQueries(graph, dataset.queries, depth, (done) =>
      options.onProgress?.({ phase: "query", variant: name, done, total: dataset.queries.length }),
    );
    const evaluation = evaluateRun(queries.run, dataset.qrels);
    results.push({
      name,
      label: VARIANTS[name].label,
      mean: evaluation.mean,
      perQuery: evaluation.perQuery,
      evaluatedQueries: evaluation.evaluatedQueries,
      run: queries.run,
      p50Ms: percentile(queries.latenciesMs, 50),
      p95Ms: percentile(queries.latenciesMs, 95),
    });
  }
  return {
    dataset: options.datasetDir,
    split: options.split ?? "test",
    documents: kb.chunks.length,
    queries: dataset.queries.length,
    queryTexts: Object.fromEntries(dataset.queries.map((query) => [query.id, query.text])),
    fingerprint: kb.fingerprint,
    calibration: kb.calibration,
    indexSeconds,
    config: { depth, l0Weight: options.l0Weight ?? null, settings: kb.settings, calibration: kb.calibration },
    variants: results,
  };
}
