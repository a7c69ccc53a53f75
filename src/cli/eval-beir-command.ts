import { basename, join } from "node:path";
import { beirReport, writeBeirOutputs } from "../eval/runner/beir-outputs.js";
import { runBeirEval } from "../eval/runner/beir-eval.js";
import { formatMetricsTable } from "../eval/report/text-table.js";
import { parseVariants, VARIANT_NAMES } from "../eval/variants.js";
import { describeCalibration } from "../calibration/calibration.js";
import { integerValue, numberValue, usageError, type CliIO, type CommandSpec, type ParsedCommand } from "./command-spec.js";
import { createProgressBar } from "./progress.js";

/** The flags of the BEIR-format evaluation (`eval --dataset DIR`). */
export const BEIR_EVAL_OPTIONS: CommandSpec["options"] = {
  dataset: { type: "string", value: "DIR", description: "A folder with corpus.jsonl, queries.jsonl and qrels/ (BEIR layout)." },
  split: { type: "string", value: "NAME", description: "The qrels split to score (default: test when present)." },
  variants: { type: "string", value: "LIST", default: VARIANT_NAMES.join(","), description: "Comma-separated variants to run." },
  out: { type: "string", value: "DIR", description: "Where the report and runs are written (default: eval/results/beir-<dataset>-<split>)." },
  "l0-weight": { type: "string", value: "W", description: "Weight of L0 in the fused score, 0 to 1 (default: the corpus calibration)." },
  depth: { type: "string", value: "N", default: "100", description: "Ranked documents kept per query." },
};

/** `lookup-knowledge eval --dataset DIR`: runs the BEIR-format evaluation and writes its report. */
export async function runBeirEvalCommand({ values }: ParsedCommand, io: CliIO): Promise<number> {
  if (typeof values.dataset !== "string") throw usageError("eval", "needs --dataset DIR (a folder with corpus.jsonl, queries.jsonl and qrels/).");
  const variants = parseVariants(String(values.variants));
  const depth = integerValue("eval", "depth", String(values.depth), 1, 10_000);
  const l0Weight = typeof values["l0-weight"] === "string" ? numberValue("eval", "l0-weight", values["l0-weight"], 0, 1) : undefined;
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
  const outDir = typeof values.out === "string" ? values.out : join("eval", "results", `beir-${basename(values.dataset)}-${result.split}`);
  const files = await writeBeirOutputs(result, report, outDir, depth);
  const summary = { dataset: result.dataset, split: result.split, corpusFingerprint: result.fingerprint, calibration: result.config.calibration, variants: report.variants.map(({ name, label, mean, extra }) => ({ name, label, ...mean, ...extra })) };
  io.out(`${formatMetricsTable(report)}\n\n${JSON.stringify(summary, null, 2)}\n`);
  io.err(`${result.documents} documents indexed in ${result.indexSeconds.toFixed(1)} s; ${result.queries} queries per variant. Wrote ${files.join(", ")}\n`);
  io.err(`${describeCalibration(result.calibration)}\n`);
  return 0;
}
