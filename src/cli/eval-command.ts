import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { beirReport, writeBeirOutputs } from "../../eval/runner/beir-outputs.js";
import { runBeirEval } from "../../eval/runner/beir-eval.js";
import { formatMetricsTable } from "../../eval/report/text-table.js";
import { parseVariants, VARIANT_NAMES } from "../../eval/variants.js";
import { describeCalibration } from "../calibration/calibration.js";
import { LookupKnowledgeError } from "../errors.js";
import { createProgressBar } from "./progress.js";

/** `lookup-knowledge eval --dataset DIR [--split NAME] [--variants L0,L1,L0+L1] [--out DIR] [--l0-weight W]` */
export async function evalCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      dataset: { type: "string" },
      split: { type: "string" },
      variants: { type: "string", default: VARIANT_NAMES.join(",") },
      out: { type: "string" },
      "l0-weight": { type: "string" },
      depth: { type: "string", default: "100" },
    },
    strict: true,
  });
  if (!values.dataset) throw new LookupKnowledgeError("INVALID_OPTION", "eval needs --dataset DIR (a folder with corpus.jsonl, queries.jsonl and qrels.tsv).");
  const variants = parseVariants(values.variants);
  const depth = Number(values.depth);
  const l0Weight = values["l0-weight"] === undefined ? undefined : Number(values["l0-weight"]);
  const bar = createProgressBar();
  const result = await runBeirEval({
    datasetDir: values.dataset,
    split: values.split,
    variants,
    depth,
    l0Weight,
    onProgress: bar.update,
  });
  bar.done();
  const report = beirReport(result);
  const outDir = values.out ?? join("eval", "results", `beir-${basename(values.dataset)}-${result.split}`);
  const files = await writeBeirOutputs(result, report, outDir, depth);
  const summary = { dataset: result.dataset, split: result.split, corpusFingerprint: result.fingerprint, calibration: result.config.calibration, variants: report.variants.map(({ name, label, mean, extra }) => ({ name, label, ...mean, ...extra })) };
  process.stdout.write(`${formatMetricsTable(report)}\n\n${JSON.stringify(summary, null, 2)}\n`);
  process.stderr.write(`${result.documents} documents indexed in ${result.indexSeconds.toFixed(1)} s; ${result.queries} queries per variant. Wrote ${files.join(", ")}\n`);
  process.stderr.write(`${describeCalibration(result.calibration)}\n`);
  return 0;
}
