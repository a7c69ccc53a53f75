import { describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import { baselineFrom, checkBaseline, describeViolation, parseBaseline, type Baseline } from "../../src/eval/promptfoo/baseline.js";
import type { EvalReport } from "../../src/eval/report/report-model.js";

function report(means: Record<string, Record<string, number>>): EvalReport {
  return {
    title: "t",
    kind: "promptfoo",
    createdAt: "2026-01-01T00:00:00.000Z",
    corpusFingerprint: "sha256:abc",
    metrics: ["nDCG@10"],
    primaryMetric: "nDCG@10",
    variants: Object.entries(means).map(([name, mean]) => ({ name, label: name, mean, perQuery: {} })),
    queries: {},
    config: {},
  };
}

const BASELINE: Baseline = { corpusFingerprint: "sha256:abc", tolerance: 0.0005, variants: { "L0+L1": { "nDCG@10": 0.8, "MRR@10": 0.7 } } };

describe("the eval baseline gate", () => {
  it("passes when every gated metric is at or above its baseline, within the tolerance", () => {
    expect(checkBaseline(report({ "L0+L1": { "nDCG@10": 0.7996, "MRR@10": 0.9 } }), BASELINE)).toEqual([]);
  });

  it("names the variant, the metric, its value and its baseline when a metric falls below", () => {
    const violations = checkBaseline(report({ "L0+L1": { "nDCG@10": 0.75, "MRR@10": 0.7 } }), BASELINE);
    expect(violations).toEqual([{ variant: "L0+L1", metric: "nDCG@10", value: 0.75, baseline: 0.8 }]);
    expect(describeViolation(violations[0])).toBe("L0+L1 nDCG@10 = 0.7500 is below its baseline 0.8000");
  });

  it("fails a metric or a variant that the run did not measure at all", () => {
    const violations = checkBaseline(report({ "L0+L1": { "nDCG@10": 0.9 } }), BASELINE);
    expect(violations.map(describeViolation)).toEqual(["L0+L1 MRR@10 = missing is below its baseline 0.7000"]);
    expect(checkBaseline(report({}), BASELINE)).toHaveLength(2);
  });

  it("writes a baseline that the same run passes, rounding down so float noise cannot fail it", () => {
    const measured = report({ L0: { "nDCG@10": 0.666666, "MRR@10": 0.5, "hit@5": 1, "recall@5": 0.9, no_answer_low: 0.8, extra: 3 } });
    const baseline = baselineFrom(measured);
    expect(baseline.variants.L0).toEqual({ "nDCG@10": 0.6666, "MRR@10": 0.5, "hit@5": 1, "recall@5": 0.9, no_answer_low: 0.8 });
    expect(checkBaseline(measured, baseline)).toEqual([]);
  });

  it.each([
    ["invalid JSON", "{", /invalid JSON/],
    ["a missing tolerance", '{"corpusFingerprint":"fp","variants":{}}', /`tolerance` must be a number >= 0, got undefined/],
    ["a variant that is null", '{"corpusFingerprint":"fp","tolerance":0,"variants":{"L0":null}}', /variants\.L0 is not an object of metrics/],
    ["a metric that is a string", '{"corpusFingerprint":"fp","tolerance":0,"variants":{"L0":{"nDCG@10":"0.5"}}}', /variants\.L0\.nDCG@10 must be a number, got "0\.5"/],
    ["variants that are a list", '{"corpusFingerprint":"fp","tolerance":0,"variants":[]}', /`variants` is not an object/],
  ])("rejects a baseline file with %s in one line naming the file and the field", (_name, text, message) => {
    let caught: unknown;
    try {
      parseBaseline(text, "my.baseline.json");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LookupKnowledgeError);
    expect((caught as Error).message).toMatch(/^lookup-knowledge: baseline my\.baseline\.json is not a baseline file \(/);
    expect((caught as Error).message).toMatch(message);
    expect((caught as Error).message).not.toContain("\n");
  });

  it("reads a baseline that --update-baseline wrote", () => {
    const baseline: Baseline = { corpusFingerprint: "fp", tolerance: 0.0005, variants: { L0: { "nDCG@10": 0.5 } } };
    expect(parseBaseline(JSON.stringify(baseline), "b.json")).toEqual(baseline);
  });
});
