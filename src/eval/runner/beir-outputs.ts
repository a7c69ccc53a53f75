import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { formatTrecRun } from "../beir/index.js";
import type { MetricValues } from "../metrics/index.js";
import { renderHtmlReport } from "../report/html-report.js";
import type { EvalReport, MetricRecord } from "../report/report-model.js";
import { variantSlug } from "../variants.js";
import type { BeirEvalResult } from "./beir-eval.js";

/** Display names of the BEIR metrics, in table order. */
export const BEIR_METRICS = { ndcgAt10: "nDCG@10", recallAt10: "Recall@10", recallAt100: "Recall@100", mrrAt10: "MRR@10" } as const;

function named(values: MetricValues): MetricRecord {
  return Object.fromEntries(Object.entries(BEIR_METRICS).map(([key, name]) => [name, values[key as keyof MetricValues]]));
}

/** The report model of a BEIR evaluation. */
export function beirReport(result: BeirEvalResult): EvalReport {
  return {
    title: `lookup-knowledge BEIR eval: ${result.dataset} (${result.split})`,
    kind: "beir",
    createdAt: new Date().toISOString(),
    corpusFingerprint: result.fingerprint,
    metrics: Object.values(BEIR_METRICS),
    primaryMetric: BEIR_METRICS.ndcgAt10,
    variants: result.variants.map((variant) => ({
      name: variant.name,
      label: variant.label,
      mean: named(variant.mean),
      perQuery: Object.fromEntries([...variant.perQuery].map(([id, values]) => [id, named(values)])),
      extra: { "p50 ms": variant.p50Ms, "p95 ms": variant.p95Ms },
    })),
    queries: result.queryTexts,
    config: { dataset: result.dataset, split: result.split, documents: result.documents, queries: result.queries, indexSeconds: Number(result.indexSeconds.toFixed(1)), ...result.config },
  };
}

/** Writes a TREC run file per variant, results.json and report.html into `outDir`; returns the files written. */
export async function writeBeirOutputs(result: BeirEvalResult, report: EvalReport, outDir: string, depth: number): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const files: string[] = [];
  for (const variant of result.variants) {
    const file = join(outDir, `run-${variantSlug(variant.name)}.trec`);
    await writeFile(file, formatTrecRun(variant.run, `lookup-knowledge-${variantSlug(variant.name)}`, depth));
    files.push(file);
  }
  const json = join(outDir, "results.json");
  await writeFile(json, `${JSON.stringify(report, null, 2)}\n`);
  const html = join(outDir, "report.html");
  await writeFile(html, renderHtmlReport(report));
  return [...files, json, html];
}
