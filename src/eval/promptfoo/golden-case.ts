import type { AssertionContext, GradingResult } from "./promptfoo-shapes.js";
import type { CompactLookup } from "./compact-lookup.js";
import type { LookupProviderMetadata } from "./lookup-provider.js";

/** Kinds of golden questions in the repository's set; a user's set may use any label (it is only reported). */
export type GoldenKind = "keyword" | "paraphrase" | "cross-domain" | "single-domain" | "agent" | "no-answer";

/** Halves of the golden set: thresholds and rules are chosen on `tune`; `holdout` is only measured. */
export type GoldenSplit = "tune" | "holdout";

/** The vars of one golden case. */
export interface GoldenVars {
  /** The question, verbatim. */
  query: string;
  /** A label for grouping questions (the repository uses {@link GoldenKind}). */
  kind: string;
  /** The half the question belongs to (within each kind, in file order: tune, holdout, tune, ...). */
  split: GoldenSplit;
  /** Chunk sources that answer the question, best first; empty for no-answer questions. */
  gold: string[];
  /** The one domain the question is about, or null. */
  expected_domain: string | null;
  /** A domain the case forces on the tool. */
  domain?: string;
}

/** One graded case as an assertion sees it. */
export interface GradedCase {
  vars: GoldenVars;
  metadata: LookupProviderMetadata;
  artifact: CompactLookup;
  /** Sources in evidence order. */
  ranked: string[];
}

/** Reads the golden vars and the provider's metadata; a missing piece is a clear failure, not a pass. */
export function readCase(context: AssertionContext): GradedCase | GradingResult {
  const metadata = (context.metadata ?? context.providerResponse?.metadata) as LookupProviderMetadata | undefined;
  if (!metadata?.artifact) return { pass: false, score: 0, reason: "the provider returned no lookup artifact in metadata" };
  const labels = context.test.metadata as { query?: string; kind?: string; split?: GoldenSplit; gold?: unknown; expected_domain?: string } | undefined;
  if (!labels || !Array.isArray(labels.gold)) return { pass: false, score: 0, reason: "the test case has no `gold` list in its metadata" };
  const vars: GoldenVars = {
    query: labels.query ?? String(context.vars.query ?? ""),
    kind: labels.kind ?? "keyword",
    split: labels.split === "holdout" ? "holdout" : "tune",
    gold: labels.gold.map(String),
    expected_domain: labels.expected_domain || null,
    ...(typeof context.vars.domain === "string" ? { domain: context.vars.domain } : {}),
  };
  return { vars, metadata, artifact: metadata.artifact, ranked: metadata.artifact.evidence.map((block) => block.source) };
}

/** True when {@link readCase} could not read the case. */
export function isFailure(value: GradedCase | GradingResult): value is GradingResult {
  return "pass" in value;
}

/** Gold judgements as graded relevance: the first gold source 2, the others 1 (rank order of the golden set). */
export function judgements(gold: readonly string[]): Map<string, number> {
  return new Map(gold.map((source, i) => [source, i === 0 ? 2 : 1]));
}

/**
 * A quality-metric result: the score is the metric, and the case passes when it reaches `min`
 * (the assertion's `config.min`, default 0: reported, never failing). The suite gates the
 * per-variant means against the baseline instead (baseline-gate.ts).
 */
export function metricResult(name: string, value: number, min: number, detail: string): GradingResult {
  return {
    pass: value >= min,
    score: value,
    reason: `${name} = ${value.toFixed(3)} (min ${min}); ${detail}`,
    namedScores: { [name]: value },
  };
}
