import { describe, expect, it } from "vitest";
import { CONTRACT_FILES, GATED_METRICS, summarizePromptfooResults, type PromptfooOutput } from "../../src/eval/promptfoo/summarize-results.js";

type Row = PromptfooOutput["results"]["results"][number];

const assertion = (file: string) => ({ value: `file://src/eval/assertions/${file}` });

function row(fields: Partial<Row> & Pick<Row, "provider" | "namedScores" | "testCase">): Row {
  return { success: true, failureReason: 0, error: null, ...fields };
}

/** Five cases: two of the L0+L1 variant, two of L0 (one identified by label only), one of L1. Listed out of display order. */
const OUTPUT: PromptfooOutput = {
  results: {
    results: [
      row({
        provider: { id: "lookup-knowledge:L0+L1", label: "L0+L1" },
        testCase: { description: "refund window" },
        vars: { query: "how long is the refund window" },
        namedScores: { "nDCG@10": 0.8, "hit@5": 1, layer_consistent: 1 },
        response: { metadata: { variant: "L0+L1", corpusFingerprint: "fp-abc" } },
        gradingResult: { componentResults: [{ pass: true, reason: "layer L0+L1 fits the evidence", assertion: assertion("retrieval-layer.ts") }] },
      }),
      row({
        provider: { id: "lookup-knowledge:L0+L1", label: "L0+L1" },
        success: false,
        failureReason: 1,
        error: "assertions failed",
        testCase: { description: "moon weather" },
        vars: { query: "what is the weather on the moon" },
        namedScores: { no_answer_low: 0, layer_consistent: 0 },
        response: { metadata: { variant: "L0+L1", corpusFingerprint: "fp-abc" } },
        gradingResult: {
          componentResults: [
            { pass: false, reason: "layer none with 1 evidence blocks", assertion: assertion("retrieval-layer.ts") },
            { pass: false, reason: "relevance high: confident", assertion: assertion("no-answer.ts") },
            { pass: false, reason: "hit@5 = 0.000 (min 1)", assertion: assertion("hit-at-k.ts") },
            { pass: true, reason: "one whole trace line, previews only", assertion: assertion("trace-line.ts") },
          ],
        },
      }),
      row({
        provider: { id: "lookup-knowledge:L1", label: "L1 only" },
        testCase: { description: "refund window" },
        vars: { query: "how long is the refund window" },
        namedScores: { "nDCG@10": 0.4 },
        response: { metadata: { variant: "L1", corpusFingerprint: "fp-abc" } },
      }),
      row({
        provider: { id: "lookup-knowledge:L0", label: "L0 only" },
        testCase: { description: "refund window" },
        vars: { query: "how long is the refund window" },
        namedScores: { "nDCG@10": 0.6, "hit@5": 1 },
        response: { metadata: { variant: "L0", corpusFingerprint: "fp-abc" } },
        gradingResult: { componentResults: [{ pass: false, reason: "L1 status ok in variant L0", assertion: assertion("fallback-reason.ts") }] },
      }),
      row({
        provider: { id: "lookup-knowledge:L0", label: "L0 only" },
        success: false,
        failureReason: 2,
        error: "lookup_knowledge failed: index missing",
        testCase: { description: "moon weather" },
        vars: { query: "what is the weather on the moon" },
        namedScores: {},
        response: null,
        gradingResult: null,
      }),
    ],
  },
};

describe("summarizePromptfooResults", () => {
  const summary = summarizePromptfooResults(OUTPUT, { promptfooConfig: "promptfooconfig.yaml" });
  const variant = (name: string) => summary.report.variants.find((v) => v.name === name);

  it("groups cases by variant and lists the variants in display order", () => {
    expect(summary.report.variants.map((v) => [v.name, v.label])).toEqual([
      ["L0", "L0 only"],
      ["L1", "L1 only"],
      ["L0+L1", "L0+L1"],
    ]);
    expect(summary.cases).toBe(5);
  });

  it("averages each named score over the cases that report it only", () => {
    // nDCG@10 is in one of the two L0+L1 cases: its mean is 0.8, not 0.4.
    expect(variant("L0+L1")?.mean).toEqual({ "nDCG@10": 0.8, "hit@5": 1, layer_consistent: 0.5, no_answer_low: 0 });
    // The errored L0 case reports no scores and does not drag the L0 means down.
    expect(variant("L0")?.mean).toEqual({ "nDCG@10": 0.6, "hit@5": 1 });
  });

  it("keeps every case's named scores per query", () => {
    expect(variant("L0+L1")?.perQuery).toEqual({
      "refund window": { "nDCG@10": 0.8, "hit@5": 1, layer_consistent: 1 },
      "moon weather": { no_answer_low: 0, layer_consistent: 0 },
    });
    expect(summary.report.queries).toEqual({ "refund window": "how long is the refund window", "moon weather": "what is the weather on the moon" });
  });

  it("collects failed components of the contract assertion files only, with variant and case", () => {
    expect(summary.contractFailures).toEqual(["L0+L1 | moon weather: layer none with 1 evidence blocks", "L0 | refund window: L1 status ok in variant L0"]);
    expect(CONTRACT_FILES).not.toContain("no-answer");
  });

  it("counts as errors only the cases whose call errored (failureReason 2), not failed assertions", () => {
    expect(summary.errors).toEqual(["L0 | moon weather: lookup_knowledge failed: index missing"]);
  });

  it("takes the variant from the provider label when the response has no metadata", () => {
    expect(variant("L0")?.perQuery).toHaveProperty("moon weather", {});
  });

  it("falls back to the raw label, then the provider id, for a provider that is no known variant", () => {
    const output: PromptfooOutput = {
      results: {
        results: [
          row({ provider: { id: "custom:x", label: "experimental" }, testCase: { description: "q" }, namedScores: { "hit@5": 1 } }),
          row({ provider: { id: "custom:y" }, testCase: { description: "q" }, namedScores: { "hit@5": 0 } }),
        ],
      },
    };
    const names = summarizePromptfooResults(output).report.variants.map((v) => [v.name, v.label]);
    expect(names).toEqual(expect.arrayContaining([["experimental", "experimental"], ["custom:y", "custom:y"]]));
    expect(names).toHaveLength(2);
  });

  it("records the corpus fingerprint, the gated metrics and the configuration in the report", () => {
    expect(GATED_METRICS).toEqual(["nDCG@10", "MRR@10", "hit@5", "recall@5", "no_answer_low", "holdout:right_first_rated", "holdout:no_answer_rated"]);
    expect(summary.report).toMatchObject({
      kind: "promptfoo",
      corpusFingerprint: "fp-abc",
      primaryMetric: "nDCG@10",
      metrics: [...GATED_METRICS, "tune:right_first_rated", "tune:no_answer_rated", "domain_hint_match"],
    });
    // No response carried a calibration: the report says so with null rather than leaving it out.
    expect(summary.report.config).toEqual({ promptfooConfig: "promptfooconfig.yaml", calibration: null });
  });

  it("records the calibration a response's metadata carried in the report's configuration", () => {
    const calibration = { source: "measured", pseudoQueries: 200, l0Weight: 0.65 };
    const output: PromptfooOutput = {
      results: {
        results: [
          row({ provider: { id: "p", label: "L0+L1" }, testCase: { description: "q" }, namedScores: {}, response: { metadata: { variant: "L0+L1", calibration } } }),
          row({ provider: { id: "p", label: "L0+L1" }, testCase: { description: "r" }, namedScores: {}, response: null }),
        ],
      },
    };
    expect(summarizePromptfooResults(output, { promptfooConfig: "promptfooconfig.yaml" }).report.config).toEqual({ promptfooConfig: "promptfooconfig.yaml", calibration });
  });

  it("reports the fingerprint as unknown when no response carried one", () => {
    const output: PromptfooOutput = { results: { results: [row({ provider: { id: "p", label: "L0 only" }, testCase: { description: "q" }, namedScores: {} })] } };
    expect(summarizePromptfooResults(output).report.corpusFingerprint).toBe("unknown");
  });
});
