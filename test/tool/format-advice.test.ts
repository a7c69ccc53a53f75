import { describe, expect, it } from "vitest";
import { formatEvidence } from "../../src/tool/format-evidence.js";
import { evidenceBlock, lookupResult } from "./helpers/lookup-result.js";
import type { EvidenceBlock, LookupResult, RelevanceAssessment } from "../../src/types.js";

function block(fields: Partial<EvidenceBlock> = {}): EvidenceBlock {
  return evidenceBlock({ retrievalLayer: "L0+L1", score: 0, ...fields });
}

function result(
  level: RelevanceAssessment["level"],
  evidence: EvidenceBlock[] = [block({ termCoverage: 0.4567, similarity: 0.8123 })],
): LookupResult {
  return lookupResult(evidence, {
    retrievalLayer: evidence.length > 0 ? "L0+L1" : "none",
    l1Status: "ok",
    fallbackReason: null,
    relevance: { level, semanticSupport: level === "high", reason: `${level} reason` },
  });
}

/** The header: every line before the first evidence block. */
const header = (text: string) => text.slice(0, text.indexOf("<<<EVIDENCE"));

const REFUSALS = ["say so rather than guess", "does not cover", "may not answer", "Relevance is low"];

describe("the relevance advice of formatEvidence", () => {
  it("tells the model to answer from the first block and cite it when relevance is high", () => {
    const text = header(formatEvidence(result("high")));

    expect(text).toContain("relevance: high (high reason)");
    expect(text).toContain("The first block matches the question well: answer from it and cite its source.");
  });

  it("tells the model to check the first block, then answer and cite, when relevance is medium", () => {
    const text = header(formatEvidence(result("medium")));

    expect(text).toContain("relevance: medium (medium reason)");
    expect(text).toContain("check it against the question, then answer from the blocks that do and cite them.");
  });

  it("tells the model to check each block, answer from those that answer, and only then say the knowledge base does not cover it, when relevance is low", () => {
    const text = header(formatEvidence(result("low")));

    expect(text).toContain("relevance: low (low reason)");
    expect(text).toContain("Relevance is uncertain: check each block against the question.");
    expect(text).toContain(
      "Answer only from blocks that do answer it, citing them; if none does, say the knowledge base does not cover this.",
    );
  });

  it.each(["high", "medium"] as const)("never tells the model to refuse when relevance is %s", (level) => {
    const text = formatEvidence(result(level));

    for (const refusal of REFUSALS) expect(text).not.toContain(refusal);
  });

  it("no longer tells the model to say so rather than guess at any level", () => {
    for (const level of ["high", "medium", "low"] as const)
      expect(formatEvidence(result(level))).not.toContain("say so rather than guess");
  });

  it("gives each level its own advice", () => {
    const advice = (["high", "medium", "low"] as const).map((level) =>
      header(formatEvidence(result(level))).replace(/relevance: \w+ \(\w+ reason\)/, ""),
    );

    expect(new Set(advice).size).toBe(3);
  });

  it("still says to give no answer from the knowledge base when there is no evidence", () => {
    expect(formatEvidence(result("none", []))).toMatch(/^NO EVIDENCE: .*say that it has no information on this\.$/);
  });
});

describe("the block signals of formatEvidence", () => {
  it("shows each block's share of query terms and its similarity instead of the fused score", () => {
    const text = formatEvidence(result("medium"));

    expect(text).toContain("layer: L0+L1 | query terms: 46% | similarity: 0.81 | hits: L0:bm25:1.00");
    expect(text).not.toContain("score: 0.00");
    expect(text).not.toMatch(/\bscore: /);
  });

  it("shows whole percentages from 0% to 100%", () => {
    const text = formatEvidence(
      result("low", [
        block({ source: "a.md#x", termCoverage: 0 }),
        block({ source: "b.md#y", termCoverage: 1 }),
        block({ source: "c.md#z", termCoverage: 0.994 }),
      ]),
    );

    expect(text.match(/query terms: \d+%/g)).toEqual(["query terms: 0%", "query terms: 100%", "query terms: 99%"]);
  });

  it("leaves out a signal the block does not have", () => {
    const text = formatEvidence(result("low", [block({ retrievalLayer: "L0" })]));

    expect(text).toContain("layer: L0 | hits: L0:bm25:1.00");
    expect(text).not.toContain("query terms:");
    expect(text).not.toContain("similarity:");
  });
});
