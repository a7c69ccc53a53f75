import { describe, expect, it } from "vitest";
import domainFilter from "../../../src/eval/assertions/domain-filter.js";
import fallbackReason from "../../../src/eval/assertions/fallback-reason.js";
import hitAtK from "../../../src/eval/assertions/hit-at-k.js";
import mrrAt10 from "../../../src/eval/assertions/mrr-at-10.js";
import ndcgAt10 from "../../../src/eval/assertions/ndcg-at-10.js";
import noAnswer from "../../../src/eval/assertions/no-answer.js";
import recallAtK from "../../../src/eval/assertions/recall-at-k.js";
import retrievalLayer from "../../../src/eval/assertions/retrieval-layer.js";
import traceLine from "../../../src/eval/assertions/trace-line.js";
import { grade, lookupResult, type AssertionFunction } from "../helpers/assertion-context.js";

const ASSERTIONS: [string, AssertionFunction][] = [
  ["retrieval-layer", retrievalLayer],
  ["domain-filter", domainFilter],
  ["fallback-reason", fallbackReason],
  ["trace-line", traceLine],
  ["no-answer", noAnswer],
  ["hit-at-k", hitAtK],
  ["recall-at-k", recallAtK],
  ["mrr-at-10", mrrAt10],
  ["ndcg-at-10", ndcgAt10],
];

describe.each(ASSERTIONS)("the %s assertion on an incomplete case", (_name, assertion) => {
  it("fails with score 0 when the provider metadata has no lookup artifact", () => {
    expect(grade(assertion, { artifact: null, gold: ["billing/refunds.md#refund-window"] })).toEqual({
      pass: false,
      score: 0,
      reason: "the provider returned no lookup artifact in metadata",
    });
  });

  it("fails with score 0 when the test metadata has no gold list", () => {
    expect(grade(assertion, { artifact: lookupResult({ relevance: { level: "none", semanticSupport: false, reason: "nothing" } }), gold: null })).toEqual({
      pass: false,
      score: 0,
      reason: "the test case has no `gold` list in its metadata",
    });
  });

  it("reads the artifact from providerResponse.metadata when the metadata shortcut is absent", () => {
    const artifact = lookupResult({ relevance: { level: "none", semanticSupport: false, reason: "nothing" } });
    const result = grade(assertion, { artifact, gold: ["billing/refunds.md#refund-window"], metadataAt: "providerResponse" });
    expect(result.reason).not.toContain("no lookup artifact");
    expect(result.pass).toBe(true);
  });
});
