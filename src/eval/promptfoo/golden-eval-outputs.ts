import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { renderHtmlReport } from "../report/html-report.js";
import type { GateVerdict } from "./baseline-gate.js";
import { summarizePromptfooResults, type PromptfooOutput, type PromptfooSummary } from "./summarize-results.js";
import { trimPromptfooResults } from "./trim-results.js";

/** The files of one golden-set eval in its out folder. */
export interface GoldenEvalFiles {
  /** The generated promptfoo config (`promptfooconfig.yaml`), re-runnable with `npx promptfoo eval -c`. */
  config: string;
  /** promptfoo's JSON results (`results.json`), trimmed after the run. */
  results: string;
  /** The report model as JSON (`summary.json`). */
  summary: string;
  /** The HTML report (`report.html`). */
  report: string;
  /** The baseline gate's verdict (`gate.json`). */
  gate: string;
}

/** The paths of a golden-set eval's files in `out`. */
export function goldenEvalFiles(out: string): GoldenEvalFiles {
  return {
    config: join(out, "promptfooconfig.yaml"),
    results: join(out, "results.json"),
    summary: join(out, "summary.json"),
    report: join(out, "report.html"),
    gate: join(out, "gate.json"),
  };
}

/** What a finished run left behind, summarised. */
export interface GoldenEvalOutcome {
  /** The run as a report, with its contract failures and errored cases. */
  summary: PromptfooSummary;
  /** The gate's verdict, or null when the afterAll hook did not run. */
  gate: GateVerdict | null;
  /** Size of promptfoo's results.json in bytes, as written and after trimming. */
  resultsBytes: { written: number; trimmed: number };
}

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as T;
  } catch {
    return null;
  }
}

/**
 * Reads promptfoo's results and the gate's verdict from `out`, trims results.json in place (see
 * {@link trimPromptfooResults}), writes summary.json and report.html.
 * @param config recorded in the report's configuration.
 */
export async function writeGoldenEvalOutputs(out: string, config: Record<string, unknown>): Promise<GoldenEvalOutcome> {
  const files = goldenEvalFiles(out);
  const written = (await stat(files.results)).size;
  const output = JSON.parse(await readFile(files.results, "utf8")) as PromptfooOutput & Record<string, unknown>;
  await writeFile(files.results, `${JSON.stringify(trimPromptfooResults(output))}\n`);
  const summary = summarizePromptfooResults(output, config);
  await writeFile(files.summary, `${JSON.stringify(summary.report, null, 2)}\n`);
  await writeFile(files.report, renderHtmlReport(summary.report));
  return { summary, gate: await readJson<GateVerdict>(files.gate), resultsBytes: { written, trimmed: (await stat(files.results)).size } };
}
