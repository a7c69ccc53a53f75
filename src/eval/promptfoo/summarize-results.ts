import type { EvalReport, ReportVariant } from "../report/report-model.js";
import { VARIANT_NAMES, VARIANTS } from "../variants.js";

/** The part of promptfoo's JSON output (`-o results.json`) this harness reads. */
export interface PromptfooOutput {
  /** promptfoo's results: one entry per test, provider and prompt. */
  results: {
    results: {
      provider: { id: string; label?: string };
      success: boolean;
      error?: string | null;
      /** 0 none, 1 an assertion failed, 2 the call errored. */
      failureReason?: number;
      namedScores: Record<string, number>;
      testCase: { description?: string; metadata?: Record<string, unknown> };
      vars?: Record<string, unknown>;
      response?: { metadata?: { corpusFingerprint?: string; variant?: string; calibration?: unknown } } | null;
      gradingResult?: { componentResults?: { pass: boolean; reason: string; assertion?: { value?: unknown } }[] } | null;
    }[];
  };
}

/** An error as one line: promptfoo's errors carry stack traces (`at …` lines), which are dropped. */
export function oneLine(message: string): string {
  return message.split("\n").map((line) => line.trim()).filter((line) => line !== "" && !line.startsWith("at ")).join(" ");
}

/** promptfoo's `failureReason` for a call that errored (as opposed to a failed assertion). */
const PROMPTFOO_ERROR = 2;

/** Metrics whose per-variant means are gated against the baseline. */
export const GATED_METRICS = ["nDCG@10", "MRR@10", "hit@5", "recall@5", "no_answer_low", "holdout:right_first_rated", "holdout:no_answer_rated"] as const;

/**
 * Goals of the relevance judgement on the golden set's held-out half (docs/tool-output.md, "Relevance"): shares
 * printed beside the measured ones. The gate itself is the baseline: a change may not lower them.
 */
export const RELEVANCE_GOALS: Readonly<Record<string, number>> = { "holdout:right_first_rated": 0.9, "holdout:no_answer_rated": 0.85 };

/** Assertion modules (file names without extension) that check the tool's contract: every case must pass them. */
export const CONTRACT_FILES = ["retrieval-layer", "domain-filter", "fallback-reason", "trace-line"] as const;

/** The assertion module a component ran, without folder and extension (`.ts` in the repo, `.js` when installed). */
function assertionModule(value: unknown): string {
  return String(value ?? "").replace(/^.*[\\/]/, "").replace(/\.(ts|js|mjs)$/, "");
}

/** What a promptfoo run amounts to. */
export interface PromptfooSummary {
  /** The run as a report (`summary.json`, `report.html`). */
  report: EvalReport;
  /** Contract checks that failed, one line each; any of these fails the suite. */
  contractFailures: string[];
  /** Cases that errored (the provider threw or returned an error). */
  errors: string[];
  /** Results read (tests × variants). */
  cases: number;
}

function variantOf(result: PromptfooOutput["results"]["results"][number]): string {
  const fromMetadata = result.response?.metadata?.variant;
  if (fromMetadata) return fromMetadata;
  return VARIANT_NAMES.find((name) => VARIANTS[name].label === result.provider.label) ?? result.provider.label ?? result.provider.id;
}

/** Per-variant means of every named score, contract failures and errors, as a report (pure). */
export function summarizePromptfooResults(output: PromptfooOutput, config: Record<string, unknown> = {}): PromptfooSummary {
  const sums = new Map<string, Map<string, { total: number; count: number }>>();
  const perQuery = new Map<string, Record<string, Record<string, number>>>();
  const queries: Record<string, string> = {};
  const contractFailures: string[] = [];
  const errors: string[] = [];
  let fingerprint = "unknown";
  let calibration: unknown = null;
  for (const result of output.results.results) {
    const variant = variantOf(result);
    const caseId = result.testCase.description ?? String(result.vars?.query ?? "");
    // The verbatim query (vars carry it escaped for promptfoo's templating).
    queries[caseId] = String(result.testCase.metadata?.query ?? result.vars?.query ?? caseId);
    fingerprint = result.response?.metadata?.corpusFingerprint ?? fingerprint;
    calibration = result.response?.metadata?.calibration ?? calibration;
    if (result.failureReason === PROMPTFOO_ERROR) errors.push(`${variant} | ${caseId}: ${oneLine(String(result.error))}`);
    const metrics = sums.get(variant) ?? new Map();
    sums.set(variant, metrics);
    for (const [name, value] of Object.entries(result.namedScores ?? {})) {
      const entry = metrics.get(name) ?? { total: 0, count: 0 };
      metrics.set(name, { total: entry.total + value, count: entry.count + 1 });
    }
    const variantQueries = perQuery.get(variant) ?? {};
    perQuery.set(variant, variantQueries);
    variantQueries[caseId] = { ...result.namedScores };
    for (const component of result.gradingResult?.componentResults ?? []) {
      const file = assertionModule(component.assertion?.value);
      if (!component.pass && (CONTRACT_FILES as readonly string[]).includes(file)) contractFailures.push(`${variant} | ${caseId}: ${oneLine(component.reason)}`);
    }
  }
  const variants: ReportVariant[] = [...sums].map(([name, metrics]) => ({
    name,
    label: VARIANTS[name as keyof typeof VARIANTS]?.label ?? name,
    mean: Object.fromEntries([...metrics].map(([metric, { total, count }]) => [metric, total / count])),
    perQuery: perQuery.get(name) ?? {},
  }));
  const order = (name: string) => {
    const at = VARIANT_NAMES.indexOf(name as never);
    return at === -1 ? VARIANT_NAMES.length : at;
  };
  variants.sort((a, b) => order(a.name) - order(b.name) || a.name.localeCompare(b.name));
  const report: EvalReport = {
    title: "lookup-knowledge golden-set eval (promptfoo)",
    kind: "promptfoo",
    createdAt: new Date().toISOString(),
    corpusFingerprint: fingerprint,
    metrics: [...GATED_METRICS, "tune:right_first_rated", "tune:no_answer_rated", "domain_hint_match"],
    primaryMetric: "nDCG@10",
    variants,
    queries,
    config: { ...config, calibration },
  };
  return { report, contractFailures, errors, cases: output.results.results.length };
}

/** One line per relevance goal of the default variant: measured share, goal, met or not. */
export function describeRelevanceGoals(report: EvalReport): string[] {
  const fused = report.variants.find((variant) => variant.name === "L0+L1");
  if (!fused) return [];
  return Object.entries(RELEVANCE_GOALS).map(([metric, goal]) => {
    const value = fused.mean[metric];
    const shown = value === undefined ? "not measured" : value.toFixed(3);
    const met = value !== undefined && value >= goal ? "met" : "NOT met";
    return `relevance, L0+L1, ${metric}: ${shown} (goal >= ${goal}: ${met})`;
  });
}
