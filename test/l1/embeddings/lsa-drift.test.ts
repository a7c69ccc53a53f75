import { describe, expect, it } from "vitest";
import { lsaRefitNeeded } from "../../../src/l1/embeddings/lsa-drift.js";

const base = { fittedDocumentCount: 1000, currentDocumentCount: 1000, changedSinceFit: 0, unknownTermShare: 0 };

describe("lsaRefitNeeded", () => {
  it("keeps the model while churn and unknown vocabulary stay within the limits", () => {
    const decision = lsaRefitNeeded({ ...base, changedSinceFit: 200, unknownTermShare: 0.1 });
    expect(decision.refit).toBe(false);
    expect(decision.reason).toMatch(/200 of 1000 documents changed.*20%.*10%/);
  });

  it("refits once more than 20% of the fitted documents changed", () => {
    const decision = lsaRefitNeeded({ ...base, currentDocumentCount: 1201, changedSinceFit: 201 });
    expect(decision).toEqual({
      refit: true,
      reason: expect.stringMatching(/201 documents changed since the fit, 20\.1% of the 1000 fitted/),
    });
  });

  it("refits once more than 10% of the corpus's tokens are unknown to the model", () => {
    const decision = lsaRefitNeeded({ ...base, unknownTermShare: 0.11 });
    expect(decision.refit).toBe(true);
    expect(decision.reason).toMatch(/11% of the corpus's tokens are outside the model's vocabulary/);
  });

  it("applies thresholds given as options", () => {
    expect(lsaRefitNeeded({ ...base, changedSinceFit: 60 }, { maxChangedShare: 0.05 }).refit).toBe(true);
    expect(lsaRefitNeeded({ ...base, unknownTermShare: 0.3 }, { maxUnknownTermShare: 0.5 }).refit).toBe(false);
  });

  it("refits a model fitted on no documents once there are documents, and never for an empty corpus", () => {
    expect(lsaRefitNeeded({ ...base, fittedDocumentCount: 0, currentDocumentCount: 3, changedSinceFit: 3 }).refit).toBe(
      true,
    );
    expect(lsaRefitNeeded({ ...base, currentDocumentCount: 0, changedSinceFit: 1000 }).refit).toBe(false);
  });

  it.each([
    [{ ...base, changedSinceFit: -1 }, /changedSinceFit must be a non-negative integer/],
    [{ ...base, fittedDocumentCount: 1.5 }, /fittedDocumentCount/],
    [{ ...base, unknownTermShare: 1.2 }, /unknownTermShare must be a number from 0 to 1/],
    [{ ...base, unknownTermShare: Number.NaN }, /unknownTermShare/],
  ])("rejects malformed input %j", (input, message) => {
    expect(() => lsaRefitNeeded(input)).toThrow(message);
  });
});
