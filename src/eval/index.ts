/**
 * `lookup-knowledge/eval`: the evaluation harness as a library, for three kinds of user.
 *
 * - promptfoo users: the provider class ({@link LookupKnowledgeProvider}), the golden-set test
 *   generator ({@link goldenTests}), the assertions as one object ({@link assertions}) and the
 *   baseline gate's `afterAll` hook ({@link baselineGateHook}). In a promptfoo config these are
 *   named by module path (`file://…/eval/promptfoo/lookup-provider.js`); the exports are for code
 *   that builds or checks configs, and for their types.
 * - CI regression checks on a golden set: {@link runGoldenEval} (what `lookup-knowledge eval --golden`
 *   runs), {@link readGoldenSet}, {@link readBaseline} and {@link checkBaseline}.
 * - Researchers on their own data: the ranking metrics ({@link ndcgAtK}, {@link recallAtK},
 *   {@link mrrAtK}, {@link hitAtK}, {@link precisionAtK}, {@link evaluateRun}), paired significance
 *   tests ({@link pairedRandomizationTest}, {@link pairedTTest}), BEIR datasets
 *   ({@link loadBeirDataset}, {@link runBeirEval}, {@link beirReport}, {@link writeBeirOutputs}),
 *   TREC run files ({@link formatTrecRun}, {@link parseTrecRun}) and the HTML report
 *   ({@link renderHtmlReport}).
 *
 * That is 23 runtime names, each a promise like the root module's; `api/lookup-knowledge-eval.api.md`
 * is the reviewed report of this surface and CI fails when it changes without the report. The
 * pieces these are built from (config generation, result summaries, report sections, variant
 * tables, the BEIR file readers) are internal and may change; the CLI, the tests and the bench
 * import them from their modules. Types shared with the root entry (`CorpusCalibration`,
 * `BuildProgress`, `RelevanceThresholds`, and the lookup result's `RetrievalLayer`, `EvidenceLayer`,
 * `L1Status`, `FallbackReason`, `RelevanceAssessment`) are exported once, from `lookup-knowledge`.
 *
 * promptfoo is an optional peer dependency, and nothing here imports it, not even its types: the
 * shapes the provider, the generator and the assertions take and return are declared in this
 * package (`AssertionContext`, `GradingResult`, `TestCase`, ...) and match promptfoo's own, so
 * these declarations type-check in an app that has no promptfoo.
 *
 * @packageDocumentation
 */

// promptfoo: the provider, the test generator, the assertions, the baseline gate.
export { default as LookupKnowledgeProvider } from "./promptfoo/lookup-provider.js";
export type { LookupProviderConfig, LookupProviderMetadata } from "./promptfoo/lookup-provider.js";
export type { CompactEvidence, CompactLookup, CompactTraceLine } from "./promptfoo/compact-lookup.js";
export { default as goldenTests } from "./promptfoo/golden-tests.js";
export type { GoldenTestsConfig } from "./promptfoo/golden-tests.js";
export { assertions, type GoldenAssertion, type GoldenAssertions } from "./assertions/index.js";
export { afterAll as baselineGateHook } from "./promptfoo/baseline-gate.js";
export type { AfterAllContext, BaselineGateConfig, GateVerdict } from "./promptfoo/baseline-gate.js";
export type { PromptfooOutput, PromptfooSummary } from "./promptfoo/summarize-results.js";
export type {
  Assertion,
  AssertionContext,
  CallApiContext,
  GradingResult,
  ProviderOptions,
  ProviderResponse,
  TestCase,
} from "./promptfoo/promptfoo-shapes.js";

// Golden sets in CI: run the suite, read the set, read and check a baseline.
export { runGoldenEval, type GoldenEvalPlan, type GoldenEvalRun, type RunGoldenEvalOptions } from "./promptfoo/run-golden-eval.js";
export type { GoldenEvalFiles, GoldenEvalOutcome } from "./promptfoo/golden-eval-outputs.js";
export { readGoldenSet, type GoldenEntry } from "./promptfoo/golden-set.js";
export type { GoldenKind, GoldenSplit, GoldenVars } from "./promptfoo/golden-case.js";
export { checkBaseline, readBaseline, type Baseline, type BaselineViolation } from "./promptfoo/baseline.js";
export type { VariantName } from "./variants.js";

// Ranking metrics and significance tests.
export { ndcgAtK } from "./metrics/ndcg.js";
export { recallAtK } from "./metrics/recall.js";
export { mrrAtK } from "./metrics/mrr.js";
export { hitAtK } from "./metrics/hit.js";
export { precisionAtK } from "./metrics/precision.js";
export { evaluateRun, type EvaluateRunOptions, type RunEvaluation } from "./metrics/evaluate-run.js";
export type { MetricValues, Qrels, RankedDoc, Run } from "./metrics/types.js";
export {
  pairedRandomizationTest,
  type PairedRandomizationOptions,
  type PairedRandomizationResult,
  type PairedTestResult,
} from "./metrics/paired-randomization.js";
export { pairedTTest, type PairedTTestResult } from "./metrics/paired-t-test.js";

// BEIR datasets and TREC run files.
export { loadBeirDataset, type LoadBeirDatasetOptions } from "./beir/load-beir-dataset.js";
export type { BeirDataset, BeirDocument, BeirQuery } from "./beir/types.js";
export type { UnknownJudgementLimits, UnknownJudgements } from "./beir/unknown-judgements.js";
export { runBeirEval, type BeirEvalOptions, type BeirEvalResult, type SettingsInEffect, type VariantResult } from "./runner/beir-eval.js";
export type { LatencySummary } from "./metrics/latency.js";
export { beirReport, writeBeirOutputs } from "./runner/beir-outputs.js";
export { formatTrecRun } from "./beir/format-trec-run.js";
export { parseTrecRun } from "./beir/parse-trec-run.js";

// The report: one model, written as JSON and rendered as HTML.
export { renderHtmlReport } from "./report/html-report.js";
export type { EvalReport, MetricRecord, ReportVariant } from "./report/report-model.js";
export type {
  PairedComparison,
  PublishedBaseline,
  QueryRanking,
  RankedEntry,
  ReportCalibration,
  ReportLatency,
  ReportLatencyFloor,
  ReportRankings,
  ReportSignificance,
} from "./report/report-sections.js";
