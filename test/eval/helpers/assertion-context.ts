/**
 * Hand-made promptfoo assertion contexts and lookup artifacts, so that the assertions under
 * src/eval/assertions/ can be graded without a promptfoo process, a knowledge base or a trace file.
 */
import type { AssertionValueFunctionContext, GradingResult } from "promptfoo";
import { compactLookup, compactTraceLine } from "../../../src/eval/promptfoo/compact-lookup.js";
import type { GoldenKind } from "../../../src/eval/promptfoo/golden-case.js";
import type { LookupProviderMetadata } from "../../../src/eval/promptfoo/lookup-provider.js";
import type { VariantName } from "../../../src/eval/variants.js";
import { CONTENT_PREVIEW_CHARS, toTraceRecord, type ToolInvocationRecord } from "../../../src/trace/trace-record.js";
import type { EvidenceBlock, EvidenceLayer, LookupResult } from "../../../src/types.js";

/** The signature every file in src/eval/assertions/ exports by default. */
export type AssertionFunction = (output: string, context: AssertionValueFunctionContext) => GradingResult;

/** Builds an evidence block; its layer follows from the hit reasons unless given. */
export function evidenceBlock(source: string, hitReasons: string[], fields: Partial<EvidenceBlock> = {}): EvidenceBlock {
  const l0 = hitReasons.some((reason) => reason.startsWith("L0:"));
  const l1 = hitReasons.some((reason) => reason.startsWith("L1:"));
  const layer: EvidenceLayer = l0 && l1 ? "L0+L1" : l1 ? "L1" : "L0";
  return { source, title: source.split("#")[0], retrievalLayer: layer, content: `Content of ${source}.`, hitReasons, ...fields };
}

/** An L0 block (keyword hit only). */
export function l0Block(source: string, fields: Partial<EvidenceBlock> = {}): EvidenceBlock {
  return evidenceBlock(source, ["L0:keyword:refund"], fields);
}

/**
 * A consistent `L0+L1` lookup: one billing hint, the billing filter on every L1 block, L1 ok.
 * `evidenceCount`, `primary` and `supplements` follow the evidence unless given.
 */
export function lookupResult(partial: Partial<LookupResult> = {}): LookupResult {
  const evidence = partial.evidence ?? [
    evidenceBlock("billing/refunds.md#refund-window", ["L0:keyword:refund", "L1:similarity:0.82", "L1:domain_filter:billing"]),
    evidenceBlock("billing/invoices.md#due-dates", ["L1:similarity:0.61", "L1:domain_filter:billing"]),
  ];
  return {
    invocationId: "inv-0001",
    query: "how long is the refund window",
    retrievalLayer: "L0+L1",
    hints: { titles: [], keywords: ["refund"], domains: ["billing"], entities: [] },
    domainFilter: "billing",
    l1Status: "ok",
    fallbackReason: null,
    relevance: { level: "high", semanticSupport: true, reason: "both layers agree on the top block" },
    candidateCount: evidence.length,
    contentTruncated: false,
    traceWritten: true,
    ...partial,
    evidence,
    primary: partial.primary ?? evidence[0] ?? null,
    supplements: partial.supplements ?? evidence.slice(1),
    evidenceCount: partial.evidenceCount ?? evidence.length,
  };
}

/** An artifact whose evidence is the given sources, in order (for the ranking metrics). */
export function rankedResult(sources: readonly string[]): LookupResult {
  return lookupResult({
    retrievalLayer: "L0",
    hints: { titles: [], keywords: [], domains: [], entities: [] },
    domainFilter: null,
    evidence: sources.map((source) => l0Block(source)),
  });
}

/** The one trace line the real tool writes for `result` (via the pure projection the sink uses). */
export function traceLineFor(result: LookupResult): ToolInvocationRecord {
  return toTraceRecord(result, {
    toolName: "lookup_knowledge",
    startedAt: Date.UTC(2024, 0, 1),
    durationMs: 12.5,
    input: { query: result.query, domain: null, limit: 10 },
    corpusFingerprint: "fp-test",
    l1CandidateCount: result.evidence.length,
    l1Error: null,
  });
}

/** What a test case and provider response look like to an assertion. */
export interface CaseOptions {
  /** @default "L0+L1" */
  variant?: VariantName;
  /** `null` leaves the artifact out of the provider metadata. @default lookupResult() */
  artifact?: LookupResult | null;
  /** @default [traceLineFor(artifact)] */
  traceLines?: unknown[];
  /** `null` leaves `gold` out of the test metadata. @default [] */
  gold?: string[] | null;
  /** @default "keyword" */
  kind?: GoldenKind;
  /** @default "" (as golden-tests.ts writes a missing domain) */
  expectedDomain?: string;
  /** Test vars besides `query`, e.g. a forced `domain`. */
  vars?: Record<string, string>;
  /** The assertion's `config` (`k`, `min`). */
  config?: Record<string, unknown>;
  /** Where promptfoo exposes the provider metadata: the `metadata` shortcut or only `providerResponse.metadata`. @default "shortcut" */
  metadataAt?: "shortcut" | "providerResponse";
}

/**
 * Builds a promptfoo `AssertionValueFunctionContext` by hand, as readCase in golden-case.ts reads it:
 * the artifact and trace lines go through the provider's compact projections, as in a real run.
 */
export function assertionContext(options: CaseOptions = {}): AssertionValueFunctionContext {
  const artifact = options.artifact === undefined ? lookupResult() : options.artifact;
  const variant = options.variant ?? "L0+L1";
  const metadata: Partial<LookupProviderMetadata> = {
    variant,
    ...(artifact !== null ? { artifact: compactLookup(artifact) } : {}),
    traceLines: artifact !== null ? (options.traceLines ?? [traceLineFor(artifact)]).map((line) => compactTraceLine(line, artifact, CONTENT_PREVIEW_CHARS)) : [],
    corpusFingerprint: "fp-test",
  };
  const vars = { query: artifact?.query ?? "a question", ...options.vars };
  const gold = options.gold === undefined ? [] : options.gold;
  const testMetadata = { kind: options.kind ?? "keyword", expected_domain: options.expectedDomain ?? "", ...(gold !== null ? { gold } : {}) };
  const providerMetadata = metadata as Record<string, unknown>;
  return {
    prompt: vars.query,
    vars,
    test: { vars, metadata: testMetadata },
    logProbs: undefined,
    config: options.config,
    provider: undefined,
    providerResponse: { output: "evidence text", metadata: providerMetadata },
    ...(options.metadataAt === "providerResponse" ? {} : { metadata: providerMetadata }),
  };
}

/** Runs an assertion on a hand-made case. */
export function grade(assertion: AssertionFunction, options: CaseOptions = {}): GradingResult {
  return assertion("evidence text", assertionContext(options));
}
