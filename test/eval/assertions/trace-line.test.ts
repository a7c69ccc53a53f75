import { describe, expect, it } from "vitest";
import traceLine from "../../../src/eval/assertions/trace-line.js";
import { CONTENT_PREVIEW_CHARS } from "../../../src/trace/trace-record.js";
import { assertionContext, evidenceBlock, grade, lookupResult, traceLineFor } from "../helpers/assertion-context.js";

// 320 characters with a quote and line breaks, so the leak check must match JSON-escaped text.
const LONG_CONTENT = `Refunds are paid within "14 days".\n\n${"The refund window starts on the delivery date. ".repeat(6)}`.slice(0, 320);
const LONG_SOURCE = "billing/refunds.md#refund-window";

function longArtifact() {
  return lookupResult({
    evidence: [
      evidenceBlock(LONG_SOURCE, ["L0:keyword:refund", "L1:similarity:0.82", "L1:domain_filter:billing"], { content: LONG_CONTENT }),
      evidenceBlock("billing/invoices.md#due-dates", ["L1:similarity:0.61", "L1:domain_filter:billing"]),
    ],
  });
}

describe("trace-line assertion", () => {
  it("passes the one line the tool writes, whose previews are cut to 200 characters, scoring trace_ok 1", () => {
    const artifact = longArtifact();
    const line = traceLineFor(artifact);
    expect(LONG_CONTENT.length).toBeGreaterThan(CONTENT_PREVIEW_CHARS);
    expect(line.retrieval_details?.evidence[0].content_preview).toHaveLength(CONTENT_PREVIEW_CHARS);
    const result = grade(traceLine, { artifact, traceLines: [line] });
    expect(result).toEqual({ pass: true, score: 1, reason: "one whole trace line, previews only", namedScores: { trace_ok: 1 } });
  });

  it("fails when traceWritten is false", () => {
    const artifact = lookupResult({ traceWritten: false });
    const result = grade(traceLine, { artifact, traceLines: [traceLineFor(artifact)] });
    expect(result).toMatchObject({ pass: false, score: 0, namedScores: { trace_ok: 0 } });
    expect(result.reason).toBe("traceWritten is false");
  });

  it("fails zero trace lines, naming the invocation", () => {
    const result = grade(traceLine, { artifact: lookupResult({ invocationId: "inv-42" }), traceLines: [] });
    expect(result.pass).toBe(false);
    expect(result.reason).toBe("0 trace lines for invocation inv-42");
  });

  it("fails two trace lines for one call", () => {
    const artifact = lookupResult({ invocationId: "inv-42" });
    const result = grade(traceLine, { artifact, traceLines: [traceLineFor(artifact), traceLineFor(artifact)] });
    expect(result.pass).toBe(false);
    expect(result.reason).toBe("2 trace lines for invocation inv-42");
  });

  it("fails a content_preview of 201 characters", () => {
    const artifact = longArtifact();
    const line = traceLineFor(artifact);
    line.retrieval_details!.evidence[0].content_preview = "x".repeat(CONTENT_PREVIEW_CHARS + 1);
    const result = grade(traceLine, { artifact, traceLines: [line] });
    expect(result.pass).toBe(false);
    expect(result.reason).toBe("a content_preview is longer than 200 characters");
  });

  it("accepts a content_preview of exactly 200 characters", () => {
    const artifact = longArtifact();
    const line = traceLineFor(artifact);
    line.retrieval_details!.evidence[1].content_preview = "x".repeat(CONTENT_PREVIEW_CHARS);
    expect(grade(traceLine, { artifact, traceLines: [line] }).pass).toBe(true);
  });

  it("fails when the full content of a long block is anywhere in the trace line, naming its source", () => {
    const artifact = longArtifact();
    const line = { ...traceLineFor(artifact), debug: { content: LONG_CONTENT } };
    const result = grade(traceLine, { artifact, traceLines: [line] });
    expect(result.pass).toBe(false);
    expect(result.reason).toBe(`full content of ${LONG_SOURCE} is in the trace`);
  });

  it("fails a line that is not a lookup_knowledge tool_invocation record", () => {
    const artifact = lookupResult();
    for (const line of [{ ...traceLineFor(artifact), type: "graph_step" }, { ...traceLineFor(artifact), tool_name: "search_web" }]) {
      const result = grade(traceLine, { artifact, traceLines: [line] });
      expect(result.pass).toBe(false);
      expect(result.reason).toBe("not a lookup_knowledge tool_invocation record");
    }
  });

  it("fails an evidence_count that differs from the artifact", () => {
    const artifact = lookupResult();
    const line = traceLineFor({ ...artifact, evidenceCount: 5 });
    const result = grade(traceLine, { artifact, traceLines: [line] });
    expect(result.pass).toBe(false);
    expect(result.reason).toBe("evidence_count differs from the artifact");
  });
  it("fails a line written for another invocation", () => {
    const artifact = longArtifact();
    const other = traceLineFor({ ...artifact, invocationId: "someone-else" });
    const result = grade(traceLine, { artifact, traceLines: [other] });
    expect(result.pass).toBe(false);
    expect(result.reason).toContain("the line is for invocation someone-else");
  });

  it("fails, without throwing, when the provider sent no trace lines at all", () => {
    const artifact = longArtifact();
    const context = assertionContext({ artifact });
    (context.metadata as { traceLines?: unknown }).traceLines = undefined;
    expect(traceLine("evidence text", context)).toMatchObject({ pass: false, score: 0, reason: "the provider returned no trace lines in metadata" });
  });
});
