/**
 * `lookup-knowledge/eval`: the evaluation harness as a library. The promptfoo provider, assertions,
 * golden-set test generator and baseline gate (promptfoo is an optional peer dependency: only its
 * types are imported here), the ranking metrics, and the BEIR-format loader and runner.
 */
export { default as LookupKnowledgeProvider, traceLinesFor } from "./promptfoo/lookup-provider.js";
export type { LookupProviderConfig, LookupProviderMetadata } from "./promptfoo/lookup-provider.js";
export { compactLookup, compactTraceLine } from "./promptfoo/compact-lookup.js";
export type { CompactEvidence, CompactLookup, CompactTraceLine } from "./promptfoo/compact-lookup.js";
export { default as goldenTests, CONTRACT_ASSERTIONS, GOLDEN_SET_PATH, RANKING_ASSERTIONS, toTestCase } from "./promptfoo/golden-tests.js";
export type { GoldenTestsConfig } from "./promptfoo/golden-tests.js";
export { checkGoldSources, MAX_GOLDEN_SET_BYTES, parseGoldenSet, readGoldenSet } from "./promptfoo/golden-set.js";
export { inertTemplateText } from "./promptfoo/inert-template.js";
export type { GoldenEntry } from "./promptfoo/golden-set.js";
export { isFailure, judgements, metricResult, readCase } from "./promptfoo/golden-case.js";
export type { GoldenKind, GoldenSplit, GoldenVars, GradedCase } from "./promptfoo/golden-case.js";
export { afterAll as baselineGateHook, GATE_FAILED_EXIT_CODE, GATE_METADATA_KEY, judgeRun, missingResults } from "./promptfoo/baseline-gate.js";
export type { AfterAllContext, BaselineGateConfig, GateVerdict } from "./promptfoo/baseline-gate.js";
export { baselineFrom, checkBaseline, describeViolation, gateProblems, parseBaseline, readBaseline } from "./promptfoo/baseline.js";
export type { Baseline, BaselineViolation } from "./promptfoo/baseline.js";
export { goldenEvalConfig, promptfooConfigText } from "./promptfoo/golden-eval-config.js";
export type { GoldenEvalConfigOptions, PromptfooConfigData } from "./promptfoo/golden-eval-config.js";
export { goldenEvalFiles, writeGoldenEvalOutputs } from "./promptfoo/golden-eval-outputs.js";
export type { GoldenEvalOutcome } from "./promptfoo/golden-eval-outputs.js";
export { PROMPTFOO_ENV_DEFAULTS, resolvePromptfooBin, runPromptfooEval } from "./promptfoo/run-promptfoo.js";
export type { RunPromptfooOptions } from "./promptfoo/run-promptfoo.js";
export { CONTRACT_FILES, describeRelevanceGoals, GATED_METRICS, RELEVANCE_GOALS, summarizePromptfooResults } from "./promptfoo/summarize-results.js";
export type { PromptfooOutput, PromptfooSummary } from "./promptfoo/summarize-results.js";
export { OUTPUT_PREVIEW_CHARS, trimPromptfooResults } from "./promptfoo/trim-results.js";
export { evalModule, evalModuleRef } from "./promptfoo/module-path.js";

export { default as domainFilterAssertion } from "./assertions/domain-filter.js";
export { default as fallbackReasonAssertion } from "./assertions/fallback-reason.js";
export { default as hitAtKAssertion } from "./assertions/hit-at-k.js";
export { default as mrrAt10Assertion } from "./assertions/mrr-at-10.js";
export { default as ndcgAt10Assertion } from "./assertions/ndcg-at-10.js";
export { default as noAnswerAssertion } from "./assertions/no-answer.js";
export { default as recallAtKAssertion } from "./assertions/recall-at-k.js";
export { default as relevanceJudgementAssertion } from "./assertions/relevance-judgement.js";
export { default as retrievalLayerAssertion } from "./assertions/retrieval-layer.js";
export { default as traceLineAssertion } from "./assertions/trace-line.js";

export { parseVariants, VARIANT_NAMES, VARIANTS, variantSlug } from "./variants.js";
export type { Variant, VariantName } from "./variants.js";
export * from "./metrics/index.js";
export * from "./beir/index.js";
export { runBeirEval } from "./runner/beir-eval.js";
export type { BeirEvalOptions, BeirEvalResult, VariantResult } from "./runner/beir-eval.js";
export { BEIR_METRICS, beirReport, writeBeirOutputs } from "./runner/beir-outputs.js";
export type { EvalReport, ReportVariant } from "./report/report-model.js";
export { renderHtmlReport } from "./report/html-report.js";
export { formatMetricsTable } from "./report/text-table.js";
