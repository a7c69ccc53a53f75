import { readFile } from "node:fs/promises";
import { errorMessage, LookupKnowledgeError } from "../../errors.js";
import { describeJsonError } from "../../shown-value.js";
import type { EvalReport } from "../report/report-model.js";
import { GATED_METRICS, type PromptfooSummary } from "./summarize-results.js";

/** A baseline file (the repository's is `eval/baseline.json`): the committed floor of every gated metric, per variant. */
export interface Baseline {
  /** Fingerprint of the corpus the baseline was measured on. */
  corpusFingerprint: string;
  /** A metric may fall this far below its baseline before the suite fails (float noise only: runs are deterministic). */
  tolerance: number;
  /** Variant name → gated metric (`nDCG@10`, `hit@5`, ...) → its floor. */
  variants: Record<string, Record<string, number>>;
}

/** One metric below its baseline. */
export interface BaselineViolation {
  /** The variant's name (`L0`, `L1`, `L0+L1`). */
  variant: string;
  /** The metric's name, as in the baseline file. */
  metric: string;
  /** The measured mean; NaN when the run did not report the metric. */
  value: number;
  /** The floor in the baseline file. */
  baseline: number;
}

/** Every gated metric of every variant that fell below its committed baseline (pure). */
export function checkBaseline(report: EvalReport, baseline: Baseline): BaselineViolation[] {
  const violations: BaselineViolation[] = [];
  for (const [variant, metrics] of Object.entries(baseline.variants)) {
    const measured = report.variants.find((v) => v.name === variant);
    for (const [metric, floor] of Object.entries(metrics)) {
      const value = measured?.mean[metric] ?? Number.NaN;
      if (!(value >= floor - baseline.tolerance)) violations.push({ variant, metric, value, baseline: floor });
    }
  }
  return violations;
}

/** One line per violation, naming the metric and its baseline. */
export function describeViolation(v: BaselineViolation): string {
  const value = Number.isNaN(v.value) ? "missing" : v.value.toFixed(4);
  return `${v.variant} ${v.metric} = ${value} is below its baseline ${v.baseline.toFixed(4)}`;
}

/** A baseline holding the current means of the gated metrics (for `--update-baseline`). */
export function baselineFrom(report: EvalReport, tolerance = 0.0005): Baseline {
  return {
    corpusFingerprint: report.corpusFingerprint,
    tolerance,
    variants: Object.fromEntries(
      report.variants.map((variant) => [
        variant.name,
        Object.fromEntries(GATED_METRICS.filter((metric) => metric in variant.mean).map((metric) => [metric, Math.floor(variant.mean[metric] * 1e4) / 1e4])),
      ]),
    ),
  };
}

/**
 * Why a run fails the gate, one line each (pure): errored calls, contract failures, a baseline
 * measured on another corpus, gated means below the baseline. Empty when the run passes.
 */
export function gateProblems(summary: PromptfooSummary, baseline: Baseline, baselinePath: string): string[] {
  return [
    ...summary.errors.map((line) => `error: ${line}`),
    ...summary.contractFailures.map((line) => `contract: ${line}`),
    ...(baseline.corpusFingerprint !== summary.report.corpusFingerprint
      ? [`corpus fingerprint ${summary.report.corpusFingerprint} differs from ${baselinePath}'s ${baseline.corpusFingerprint}: re-measure with --update-baseline`]
      : []),
    ...checkBaseline(summary.report, baseline).map((violation) => `baseline: ${describeViolation(violation)}`),
  ];
}

/**
 * Reads a baseline file; `null` when it does not exist.
 * @throws LookupKnowledgeError `INVALID_OPTION` when it exists but is not a baseline.
 */
export async function readBaseline(path: string): Promise<Baseline | null> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new LookupKnowledgeError("INVALID_OPTION", `baseline ${path} cannot be read (${errorMessage(error)}).`);
  }
  return parseBaseline(text, path);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Why a parsed baseline is not one (the first problem), or null when it is. */
function shapeProblem(data: unknown): string | null {
  if (!isRecord(data)) return "not a JSON object";
  if (typeof data.corpusFingerprint !== "string") return "`corpusFingerprint` is not a string";
  if (typeof data.tolerance !== "number" || !(data.tolerance >= 0)) return `\`tolerance\` must be a number >= 0, got ${JSON.stringify(data.tolerance)}`;
  if (!isRecord(data.variants)) return "`variants` is not an object of variants";
  for (const [variant, metrics] of Object.entries(data.variants)) {
    if (!isRecord(metrics)) return `variants.${variant} is not an object of metrics`;
    const bad = Object.entries(metrics).find(([, value]) => typeof value !== "number" || !Number.isFinite(value));
    if (bad) return `variants.${variant}.${bad[0]} must be a number, got ${JSON.stringify(bad[1])}`;
  }
  return null;
}

/**
 * Parses and checks a baseline file's text (pure): a wrong shape would gate against nothing or
 * against NaN, so it is one clear error instead.
 * @throws LookupKnowledgeError `INVALID_OPTION` naming the file and the first bad field.
 */
export function parseBaseline(text: string, path: string): Baseline {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    data = error;
  }
  // JSON.parse's own message quotes the text: a file given by mistake (a secret) would be shown.
  const problem = data instanceof Error ? describeJsonError(data, text) : shapeProblem(data);
  if (problem) throw new LookupKnowledgeError("INVALID_OPTION", `baseline ${path} is not a baseline file (${problem}); fix it or rewrite it with --update-baseline.`);
  return data as Baseline;
}
