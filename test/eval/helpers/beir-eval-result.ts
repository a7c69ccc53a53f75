/** A hand-made BEIR evaluation result, so that the report can be built without a dataset or an index. */
import { defaultCalibration } from "../../../src/calibration/calibration.js";
import type { MetricValues, Qrels, RankedDoc } from "../../../src/eval/metrics/index.js";
import type { BeirEvalResult, VariantResult } from "../../../src/eval/runner/beir-eval.js";
import type { RankedEntry } from "../../../src/eval/report/report-sections.js";
import type { VariantName } from "../../../src/eval/variants.js";

const metrics = (ndcgAt10: number): MetricValues => ({ ndcgAt10, recallAt10: ndcgAt10, recallAt100: 1, mrrAt10: ndcgAt10 });

/** One variant: per-query nDCG@10 values and ranked document ids per query. */
export function fakeVariant(name: VariantName, ndcg: Record<string, number>, ranked: Record<string, string[]>, p50Ms = 5): VariantResult {
  const perQuery = new Map(Object.entries(ndcg).map(([id, value]) => [id, metrics(value)]));
  const values = [...perQuery.values()].map((m) => m.ndcgAt10);
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
  const run = new Map(Object.entries(ranked).map(([id, docs]) => [id, docs.map((docId, i): RankedDoc => ({ docId, score: 1 - i / 100 }))]));
  const top = new Map(Object.entries(ranked).map(([id, docs]) => [id, docs.slice(0, 10).map((doc, i): RankedEntry => ({ doc, score: 1 - i / 100, reasons: `L0:bm25:${(9 - i).toFixed(2)}` }))]));
  return {
    name,
    label: name === "L0+L1" ? "L0+L1" : `${name} only`,
    mean: metrics(mean),
    perQuery,
    evaluatedQueries: perQuery.size,
    run,
    latency: { queries: perQuery.size, meanMs: p50Ms + 1, p50Ms, p95Ms: p50Ms * 2, p99Ms: p50Ms * 3, maxMs: p50Ms * 4 },
    stagesP50Ms: { l0: p50Ms / 2, l1: 0.1, merge: 0.2 },
    top,
  };
}

/** A result over `qrels` with the given variants; titles are "Title of <id>" unless given. */
export function fakeBeirResult(variants: VariantResult[], qrels: Qrels, overrides: Partial<BeirEvalResult> = {}): BeirEvalResult {
  const docs = new Set([...qrels.values()].flatMap((judged) => [...judged.keys()]).concat(variants.flatMap((v) => [...v.run.values()].flatMap((r) => r.map((d) => d.docId)))));
  const calibration = defaultCalibration("hand-made");
  return {
    dataset: "datasets/mini",
    split: "test",
    documents: docs.size,
    queries: qrels.size,
    queryTexts: Object.fromEntries([...qrels.keys()].map((id) => [id, `query ${id}`])),
    titles: new Map([...docs].map((doc) => [doc, `Title of ${doc}`])),
    qrels,
    unknownJudgements: { judgements: [...qrels.values()].reduce((sum, judged) => sum + judged.size, 0), documents: 0, queries: 0 },
    cutQueries: 0,
    fingerprint: "sha256:fake",
    calibration,
    inEffect: { l0Weight: 0.8, l0WeightSource: "defaults", relevance: calibration.relevance },
    indexSeconds: 1.25,
    config: { depth: 100, l0Weight: 0.8 },
    variants,
    floor: { queries: 10, meanMs: 1.2, p50Ms: 1, p95Ms: 2, p99Ms: 3, maxMs: 4 },
    ...overrides,
  };
}
