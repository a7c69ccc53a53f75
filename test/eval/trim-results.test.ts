import { describe, expect, it } from "vitest";
import { summarizePromptfooResults, type PromptfooOutput } from "../../src/eval/promptfoo/summarize-results.js";
import { OUTPUT_PREVIEW_CHARS, trimPromptfooResults } from "../../src/eval/promptfoo/trim-results.js";

const assertion = (file: string) => ({ type: "javascript", value: `file:///pkg/dist/src/eval/assertions/${file}.js` });

/** One result as promptfoo writes it: duplicated metadata, the full evidence text, every component. */
function fullRow(description: string, pass: boolean) {
  const metadata = { variant: "L0+L1", corpusFingerprint: "fp", calibration: { l0Weight: 0.7 }, artifact: { evidence: [{ source: "a.md#top" }] } };
  return {
    provider: { id: "file:///pkg/lookup-provider.js", label: "L0+L1" },
    success: pass,
    failureReason: pass ? 0 : 1,
    error: pass ? null : "assertions failed",
    score: 0.9,
    latencyMs: 12,
    testIdx: 0,
    namedScores: { "nDCG@10": 0.9, trace_ok: pass ? 1 : 0 },
    vars: { query: "refunds" },
    prompt: { raw: "refunds", label: "{{query}}" },
    tokenUsage: { total: 0 },
    metadata: { ...metadata, gold: ["a.md#top"] },
    testCase: { description, vars: { query: "refunds" }, assert: [assertion("trace-line")], metadata: { gold: ["a.md#top"], kind: "keyword" } },
    response: { output: "evidence ".repeat(500), metadata },
    gradingResult: {
      pass,
      score: 0.9,
      reason: "r",
      tokensUsed: { total: 0 },
      componentResults: [
        { pass: true, score: 0.9, reason: "nDCG@10 = 0.900", namedScores: { "nDCG@10": 0.9 }, assertion: assertion("ndcg-at-10") },
        { pass, score: pass ? 1 : 0, reason: pass ? "one whole trace line" : "traceWritten is false", assertion: assertion("trace-line") },
      ],
    },
  };
}

const OUTPUT = { evalId: "eval-1", config: { description: "d" }, results: { version: 3, timestamp: "t", stats: { successes: 1, failures: 1 }, prompts: [{ raw: "x" }], results: [fullRow("a", true), fullRow("b", false)] } };

describe("trimming promptfoo's results.json", () => {
  const trimmed = trimPromptfooResults(OUTPUT);

  it("keeps everything the summary reads: the same report, contract failures included", () => {
    const before = summarizePromptfooResults(OUTPUT);
    const after = summarizePromptfooResults(trimmed as unknown as PromptfooOutput);
    expect({ ...after.report, createdAt: "" }).toEqual({ ...before.report, createdAt: "" });
    expect(after.contractFailures).toEqual(["L0+L1 | b: traceWritten is false"]);
  });

  it("drops the duplicated metadata, prompts, token counts and passing components, and cuts the evidence text to a preview", () => {
    const rows = (trimmed as { results: { results: Record<string, unknown>[] } }).results.results;
    for (const key of ["metadata", "prompt", "tokenUsage"]) expect(rows[0], key).not.toHaveProperty(key);
    expect((rows[0].response as { output: string }).output.length).toBeLessThanOrEqual(OUTPUT_PREVIEW_CHARS);
    expect((rows[0].gradingResult as { componentResults: unknown[] }).componentResults).toEqual([]);
    expect((rows[1].gradingResult as { componentResults: unknown[] }).componentResults).toEqual([{ pass: false, reason: "traceWritten is false", assertion: { value: assertion("trace-line").value } }]);
    expect(JSON.stringify(trimmed).length).toBeLessThan(JSON.stringify(OUTPUT).length / 3);
  });
});
