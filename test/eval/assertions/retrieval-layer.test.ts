import { describe, expect, it } from "vitest";
import retrievalLayer from "../../../src/eval/assertions/retrieval-layer.js";
import { evidenceBlock, grade, l0Block, lookupResult } from "../helpers/assertion-context.js";

const L1_BLOCK = evidenceBlock("billing/invoices.md#due-dates", ["L1:similarity:0.61"]);

describe("retrieval-layer assertion", () => {
  it("passes an L0+L1 lookup whose evidence carries both layers' hit reasons, scoring layer_consistent 1", () => {
    const result = grade(retrievalLayer, { variant: "L0+L1", artifact: lookupResult() });
    expect(result).toMatchObject({ pass: true, score: 1, namedScores: { layer_consistent: 1 } });
    expect(result.reason).toBe("layer L0+L1 fits the evidence");
  });

  it("passes layer none with no evidence in every variant", () => {
    for (const variant of ["L0", "L1", "L0+L1"] as const) {
      const artifact = lookupResult({ retrievalLayer: "none", evidence: [], l1Status: variant === "L0" ? "disabled" : "empty" });
      expect(grade(retrievalLayer, { variant, artifact }).pass, variant).toBe(true);
    }
  });

  it("fails layer L0+L1 in the L0 variant, naming the variant and the layer", () => {
    const artifact = lookupResult({ retrievalLayer: "L0+L1" });
    const result = grade(retrievalLayer, { variant: "L0", artifact });
    expect(result).toMatchObject({ pass: false, score: 0, namedScores: { layer_consistent: 0 } });
    expect(result.reason).toContain("variant L0 cannot produce layer L0+L1");
  });

  it("fails layer L0 in the L1 variant", () => {
    const artifact = lookupResult({ retrievalLayer: "L0", evidence: [l0Block("billing/refunds.md#refund-window")] });
    const result = grade(retrievalLayer, { variant: "L1", artifact });
    expect(result.pass).toBe(false);
    expect(result.reason).toContain("variant L1 cannot produce layer L0");
  });

  it("fails layer none when there is evidence, counting the blocks", () => {
    const artifact = lookupResult({ retrievalLayer: "none", evidence: [l0Block("billing/refunds.md#refund-window")] });
    const result = grade(retrievalLayer, { variant: "L0+L1", artifact });
    expect(result.pass).toBe(false);
    expect(result.reason).toContain("layer none with 1 evidence blocks");
  });

  it("fails a named layer with no evidence at all", () => {
    const result = grade(retrievalLayer, { variant: "L0+L1", artifact: lookupResult({ retrievalLayer: "L0", evidence: [] }) });
    expect(result.pass).toBe(false);
    expect(result.reason).toContain("layer L0 with 0 evidence blocks");
  });

  it("fails L1 evidence under layer L0", () => {
    const artifact = lookupResult({ retrievalLayer: "L0", evidence: [l0Block("billing/refunds.md#refund-window"), L1_BLOCK] });
    const result = grade(retrievalLayer, { variant: "L0+L1", artifact });
    expect(result.pass).toBe(false);
    expect(result.reason).toContain("L1 evidence but layer L0");
  });

  it("fails L0 evidence under layer L1", () => {
    const artifact = lookupResult({ retrievalLayer: "L1", evidence: [L1_BLOCK, l0Block("billing/refunds.md#refund-window")] });
    const result = grade(retrievalLayer, { variant: "L0+L1", artifact });
    expect(result.pass).toBe(false);
    expect(result.reason).toContain("L0 evidence but layer L1");
  });

  it("fails a layer naming L1 while L1 did not answer", () => {
    const artifact = lookupResult({ retrievalLayer: "L1", l1Status: "empty", fallbackReason: "l1_empty", evidence: [L1_BLOCK] });
    const result = grade(retrievalLayer, { variant: "L1", artifact });
    expect(result.pass).toBe(false);
    expect(result.reason).toContain("layer L1 while L1 status is empty");
  });

  it("lists every problem it found, separated by semicolons", () => {
    const artifact = lookupResult({ retrievalLayer: "none", evidence: [L1_BLOCK] });
    const result = grade(retrievalLayer, { variant: "L0+L1", artifact });
    expect(result.reason).toBe("layer none with 1 evidence blocks; L1 evidence but layer none");
  });
});
