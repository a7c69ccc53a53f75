import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { formatTrecRun } from "../beir/index.js";
import { stringifyCompact } from "../report/compact-json.js";
import { renderHtmlReport } from "../report/html-report.js";
import type { EvalReport } from "../report/report-model.js";
import { variantSlug } from "../variants.js";
import type { BeirEvalResult } from "./beir-eval.js";
import { makeFolders } from "../../make-folders.js";

export { BEIR_METRICS, beirReport } from "./beir-report.js";

/** Nesting levels of results.json written one key a line; deeper values (one query's figures) share a line. */
const RESULTS_JSON_DEPTH = 4;

/** Writes a TREC run file per variant, results.json and report.html into `outDir`; returns the files written. */
export async function writeBeirOutputs(result: BeirEvalResult, report: EvalReport, outDir: string, depth: number): Promise<string[]> {
  await makeFolders(outDir);
  const files: string[] = [];
  for (const variant of result.variants) {
    const file = join(outDir, `run-${variantSlug(variant.name)}.trec`);
    await writeFile(file, formatTrecRun(variant.run, `lookup-knowledge-${variantSlug(variant.name)}`, depth));
    files.push(file);
  }
  const json = join(outDir, "results.json");
  await writeFile(json, `${stringifyCompact(report, RESULTS_JSON_DEPTH)}\n`);
  const html = join(outDir, "report.html");
  await writeFile(html, renderHtmlReport(report));
  return [...files, json, html];
}
