import { describe, expect, it } from "vitest";
import domainFilter from "../../../src/eval/assertions/domain-filter.js";
import { evidenceBlock, grade, l0Block, lookupResult } from "../helpers/assertion-context.js";

const TWO_DOMAINS = { titles: [], keywords: [], domains: ["billing", "shipping"], entities: [] };
const NO_DOMAIN = { titles: [], keywords: [], domains: [], entities: [] };

describe("domain-filter assertion", () => {
  it("passes the hints' single domain used as the filter on every L1 block, scoring domain_filter_correct 1", () => {
    const result = grade(domainFilter, { artifact: lookupResult(), expectedDomain: "billing" });
    expect(result).toMatchObject({ pass: true, score: 1, namedScores: { domain_filter_correct: 1, domain_hint_match: 1 } });
    expect(result.reason).toBe("filter billing as the hints require");
  });

  it("passes no filter when the hints name two domains", () => {
    const artifact = lookupResult({ hints: TWO_DOMAINS, domainFilter: null, evidence: [evidenceBlock("billing/refunds.md#refund-window", ["L1:similarity:0.8"])] });
    const result = grade(domainFilter, { artifact });
    expect(result).toMatchObject({ pass: true, namedScores: { domain_filter_correct: 1 } });
    expect(result.reason).toBe("filter none as the hints require");
  });

  it("fails a filter set although the hints name two domains, naming both", () => {
    const result = grade(domainFilter, { artifact: lookupResult({ hints: TWO_DOMAINS, domainFilter: "billing" }) });
    expect(result).toMatchObject({ pass: false, score: 0, namedScores: { domain_filter_correct: 0 } });
    expect(result.reason).toContain("filter billing but expected null (hint domains: [billing, shipping])");
  });

  it("fails no filter although the hints name exactly one domain", () => {
    const artifact = lookupResult({ domainFilter: null, evidence: [evidenceBlock("billing/refunds.md#refund-window", ["L1:similarity:0.8"])] });
    const result = grade(domainFilter, { artifact });
    expect(result.pass).toBe(false);
    expect(result.reason).toContain("filter null but expected billing");
  });

  it("ignores blank hint domains when deciding whether there is exactly one", () => {
    const hints = { titles: [], keywords: [], domains: ["billing", "  "], entities: [] };
    expect(grade(domainFilter, { artifact: lookupResult({ hints }) }).pass).toBe(true);
  });

  it("fails an L1 block without L1:domain_filter:<domain>, counting such blocks", () => {
    const artifact = lookupResult({
      evidence: [
        evidenceBlock("billing/refunds.md#refund-window", ["L1:similarity:0.82", "L1:domain_filter:billing"]),
        evidenceBlock("billing/invoices.md#due-dates", ["L1:similarity:0.61"]),
        evidenceBlock("shipping/rates.md#zones", ["L1:similarity:0.55", "L1:domain_filter:shipping"]),
      ],
    });
    const result = grade(domainFilter, { artifact });
    expect(result.pass).toBe(false);
    expect(result.reason).toBe("2 L1 blocks without the filter");
  });

  it("does not require the filter reason on L0-only blocks", () => {
    const artifact = lookupResult({ retrievalLayer: "L0", evidence: [l0Block("billing/refunds.md#refund-window")] });
    expect(grade(domainFilter, { artifact }).pass).toBe(true);
  });

  it("expects the forced domain, trimmed and lower-cased, whatever the hints say", () => {
    const forced = lookupResult({ hints: TWO_DOMAINS, domainFilter: "billing" });
    expect(grade(domainFilter, { artifact: forced, vars: { domain: " Billing " } }).pass).toBe(true);
    const ignored = lookupResult({ hints: TWO_DOMAINS, domainFilter: null, evidence: [] });
    const result = grade(domainFilter, { artifact: ignored, vars: { domain: "Billing" } });
    expect(result.pass).toBe(false);
    expect(result.reason).toContain("filter null but expected billing");
  });

  it("scores domain_hint_match 0 when the filter misses the expected domain, without failing the contract", () => {
    const artifact = lookupResult({ hints: TWO_DOMAINS, domainFilter: null, evidence: [] });
    const result = grade(domainFilter, { artifact, expectedDomain: "billing" });
    expect(result.pass).toBe(true);
    expect(result.namedScores).toEqual({ domain_filter_correct: 1, domain_hint_match: 0 });
  });

  it("leaves domain_hint_match out in the L1 variant, for a forced domain and without an expected domain", () => {
    const l1Only = lookupResult({ hints: NO_DOMAIN, domainFilter: null, evidence: [] });
    expect(grade(domainFilter, { variant: "L1", artifact: l1Only, expectedDomain: "billing" }).namedScores).toEqual({ domain_filter_correct: 1 });
    expect(grade(domainFilter, { artifact: lookupResult(), vars: { domain: "billing" }, expectedDomain: "billing" }).namedScores).toEqual({ domain_filter_correct: 1 });
    expect(grade(domainFilter, { artifact: lookupResult(), expectedDomain: "" }).namedScores).toEqual({ domain_filter_correct: 1 });
  });
});
