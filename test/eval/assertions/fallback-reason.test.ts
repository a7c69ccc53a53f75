import { describe, expect, it } from "vitest";
import fallbackReason from "../../../src/eval/assertions/fallback-reason.js";
import { grade, l0Block, lookupResult } from "../helpers/assertion-context.js";

const L0_ONLY = { retrievalLayer: "L0" as const, evidence: [l0Block("billing/refunds.md#refund-window")] };

describe("fallback-reason assertion", () => {
  it("passes L1 ok with no fallback in the L0+L1 variant, scoring fallback_correct 1", () => {
    const result = grade(fallbackReason, { variant: "L0+L1", artifact: lookupResult() });
    expect(result).toMatchObject({ pass: true, score: 1, namedScores: { fallback_correct: 1 }, reason: "L1 ok, fallback null" });
  });

  it("passes L1 disabled with fallback l1_disabled in the L0 variant", () => {
    const artifact = lookupResult({ ...L0_ONLY, l1Status: "disabled", fallbackReason: "l1_disabled" });
    expect(grade(fallbackReason, { variant: "L0", artifact })).toMatchObject({ pass: true, reason: "L1 disabled, fallback l1_disabled" });
  });

  it("passes L1 empty with fallback l1_empty in the L1 variant", () => {
    const artifact = lookupResult({ retrievalLayer: "none", evidence: [], l1Status: "empty", fallbackReason: "l1_empty" });
    expect(grade(fallbackReason, { variant: "L1", artifact }).pass).toBe(true);
  });

  it("fails fallback l1_empty while L1 status is ok", () => {
    const result = grade(fallbackReason, { artifact: lookupResult({ fallbackReason: "l1_empty" }) });
    expect(result).toMatchObject({ pass: false, score: 0, namedScores: { fallback_correct: 0 } });
    expect(result.reason).toContain("fallback l1_empty for L1 status ok");
  });

  it("fails a missing fallback reason when L1 came back empty", () => {
    const result = grade(fallbackReason, { artifact: lookupResult({ ...L0_ONLY, l1Status: "empty", fallbackReason: null }) });
    expect(result.pass).toBe(false);
    expect(result.reason).toContain("fallback null for L1 status empty");
  });

  it("fails L1 status disabled in the L0+L1 variant", () => {
    const artifact = lookupResult({ ...L0_ONLY, l1Status: "disabled", fallbackReason: "l1_disabled" });
    const result = grade(fallbackReason, { variant: "L0+L1", artifact });
    expect(result.pass).toBe(false);
    expect(result.reason).toBe("L1 status disabled in variant L0+L1");
  });

  it("fails L1 status ok in the L0 variant", () => {
    const result = grade(fallbackReason, { variant: "L0", artifact: lookupResult() });
    expect(result.pass).toBe(false);
    expect(result.reason).toBe("L1 status ok in variant L0");
  });

  it("fails an L1 error or unavailability on the sample corpus even with the matching fallback reason", () => {
    for (const [status, reason] of [["error", "l1_error"], ["unavailable", "l1_unavailable"]] as const) {
      const result = grade(fallbackReason, { artifact: lookupResult({ ...L0_ONLY, l1Status: status, fallbackReason: reason }) });
      expect(result.pass, status).toBe(false);
      expect(result.reason).toBe(`L1 ${status} on the sample corpus`);
    }
  });
});
