import { basename, join } from "node:path";
import { describeCalibration } from "../calibration/calibration.js";
import { errorDetail, LookupKnowledgeError } from "../errors.js";
import { beirReport, writeBeirOutputs } from "../eval/runner/beir-outputs.js";
import { runBeirEval, type BeirEvalResult } from "../eval/runner/beir-eval.js";
import type { EvalReport } from "../eval/report/report-model.js";
import { formatMetricsTable } from "../eval/report/text-table.js";
import { parseVariants, type VariantName } from "../eval/variants.js";
import { integerValue, numberValue, usageError, type CliIO, type ParsedCommand } from "./command-spec.js";
import { checkOutDir } from "./out-dir.js";
import { createProgressBar } from "./progress.js";
import { stderrLine } from "./terminal-text.js";

function variantsValue(raw: string): VariantName[] {
  try {
    return parseVariants(raw);
  } catch (error) {
    if (error instanceof LookupKnowledgeError) throw usageError("eval", `--variants: ${errorDetail(error)}`);
    throw error;
  }
}

/** The `--json` summary: what a script needs from the run, without the per-query detail (that is in results.json). */
export function beirSummary(result: BeirEvalResult, report: EvalReport, files: string[]) {
  return {
    dataset: result.dataset,
    split: result.split,
    documents: result.documents,
    queries: result.queries,
    corpusFingerprint: result.fingerprint,
    l0Weight: result.inEffect.l0Weight,
    l0WeightSource: result.inEffect.l0WeightSource,
    calibration: result.calibration,
    variants: report.variants.map(({ name, label, mean, latency }) => ({
      name,
      label,
      ...mean,
      latency: latency ?? null,
    })),
    latencyFloor: report.latencyFloor ?? null,
    significance: report.significance ?? null,
    baselines: report.baselines ?? [],
    files,
  };
}

const pText = (p: number) => (p < 0.0001 ? "< 0.0001" : p.toFixed(4));

/** `lookup-knowledge eval --dataset DIR`: runs the BEIR-format evaluation and writes its report. */
export async function runBeirEvalCommand({ values }: ParsedCommand, io: CliIO): Promise<number> {
  if (typeof values.dataset !== "string")
    throw usageError("eval", "needs --dataset DIR (a folder with corpus.jsonl, queries.jsonl and qrels/).");
  const variants = variantsValue(String(values.variants));
  const depth = integerValue("eval", "depth", String(values.depth), 1, 10_000);
  const l0Weight =
    typeof values["l0-weight"] === "string" ? numberValue("eval", "l0-weight", values["l0-weight"], 0, 1) : undefined;
  if (typeof values.out === "string") checkOutDir("eval", values.out);
  const bar = createProgressBar();
  const result = await runBeirEval({
    datasetDir: values.dataset,
    split: typeof values.split === "string" ? values.split : undefined,
    variants,
    depth,
    l0Weight,
    onProgress: bar.update,
  });
  bar.done();
  const report = beirReport(result);
  const outDir =
    typeof values.out === "string"
      ? values.out
      : join("eval", "results", `beir-${basename(values.dataset)}-${result.split}`);
  const files = await writeBeirOutputs(result, report, outDir, depth);
  if (values.json === true) io.out(`${JSON.stringify(beirSummary(result, report, files), null, 2)}\n`);
  else io.out(`${formatMetricsTable(report)}\n`);
  // Paths from the command line: shown inertly and bounded, as every line on stderr.
  io.err(
    `${stderrLine(`${result.documents} documents indexed in ${result.indexSeconds.toFixed(1)} s; ${result.queries} queries per variant. Wrote ${files.join(", ")}`)}\n`,
  );
  const unknown = result.unknownJudgements;
  if (unknown.documents + unknown.queries > 0)
    io.err(
      `note: of ${unknown.judgements} judgements, ${unknown.documents} name a document not in the corpus (unretrievable, they lower recall) and ${unknown.queries} a query not in the queries file (left out).\n`,
    );
  if (result.cutQueries > 0)
    io.err(
      `note: ${result.cutQueries} queries are longer than a lookup takes (1,000 characters); each ran on its first 1,000.\n`,
    );
  io.err(
    `${describeCalibration(result.calibration)}; l0Weight in effect ${result.inEffect.l0Weight} (${result.inEffect.l0WeightSource})\n`,
  );
  for (const c of report.significance?.comparisons ?? []) {
    io.err(
      `${c.a} vs ${c.b}: Δ nDCG@10 ${c.meanDifference >= 0 ? "+" : ""}${c.meanDifference.toFixed(4)} over ${c.n} queries, randomisation p ${pText(c.randomizationP)}, t-test p ${pText(c.tTestP)}\n`,
    );
  }
  return 0;
}
