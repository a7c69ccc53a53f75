import { describe, expect, it } from "vitest";
import {
  CONTENT_PREVIEW_CHARS,
  preview,
  toErrorRecord,
  toTraceRecord,
  type TraceContext,
} from "../../src/trace/trace-record.js";
import { LookupKnowledgeError } from "../../src/errors.js";
import { capText } from "../../src/text/cap-text.js";
import type { LookupResult } from "../../src/types.js";
import { hostileGenerator } from "./trace-inputs.js";

const LONG = `${"Step one: drain the node. ".repeat(60)}THE-END-MARKER`;

function result(overrides: Partial<LookupResult> = {}): LookupResult {
  const evidence = [
    {
      source: "ops/restart.md#drain",
      title: "Restart",
      breadcrumb: ["Restart", "Drain"],
      retrievalLayer: "L0+L1" as const,
      content: LONG,
      hitReasons: ["L0:keyword:drain", "L1:similarity:0.81"],
      score: 0.93,
    },
    {
      source: "ops/notes.md#top",
      retrievalLayer: "L1" as const,
      content: "Short   note\n\nwith  spaces.",
      hitReasons: ["L1:similarity:0.40"],
    },
  ];
  return {
    invocationId: "inv-42",
    query: "how to drain a node",
    retrievalLayer: "L0+L1",
    hints: { titles: ["Restart"], keywords: ["drain"], domains: ["ops"], entities: ["kubectl"] },
    domainFilter: "ops",
    l1Status: "ok",
    fallbackReason: null,
    relevance: { level: "high", semanticSupport: true, reason: "both layers" },
    evidence,
    primary: evidence[0],
    supplements: evidence.slice(1),
    candidateCount: 4,
    evidenceCount: 2,
    contentTruncated: false,
    traceWritten: false,
    ...overrides,
  };
}

const CONTEXT: TraceContext = {
  toolName: "lookup_knowledge",
  startedAt: Date.UTC(2024, 4, 1, 12, 0, 0, 250),
  durationMs: 12.3456,
  input: { query: "how to drain a node", domain: null, limit: 5 },
  corpusFingerprint: "fp-1",
  l1CandidateCount: 3,
  l1Error: null,
  timings: { l0Ms: 1.23456, embedMs: 2.005, l1Ms: 4.5, mergeMs: 0.004, totalMs: 12.3456 },
};

describe("toTraceRecord", () => {
  it("projects a lookup onto a snake_case tool_invocation record", () => {
    const record = toTraceRecord(result(), CONTEXT);

    expect(record).toMatchObject({
      type: "tool_invocation",
      invocation_id: "inv-42",
      tool_name: "lookup_knowledge",
      started_at: "2024-05-01T12:00:00.250Z",
      duration_ms: 12.35,
      status: "success",
      input: { query: "how to drain a node", domain: null, limit: 5 },
      corpus_fingerprint: "fp-1",
    });
    expect(Object.keys(record).sort()).toEqual(
      [
        "access",
        "corpus_fingerprint",
        "duration_ms",
        "durations_ms",
        "index_generation",
        "input",
        "invocation_id",
        "retrieval_details",
        "run_id",
        "started_at",
        "status",
        "thread_id",
        "tool_call_id",
        "tool_name",
        "type",
      ].sort(),
    );
  });

  it("records every hinted domain and its evidence, next to the L1 filter the hints led to", () => {
    const hints = {
      titles: [],
      keywords: ["refund"],
      domains: ["billing", "incident-runbooks"],
      entities: [],
      domainEvidence: [
        { domain: "billing", strength: 1, files: 1 },
        { domain: "incident-runbooks", strength: 1, files: 2 },
      ],
    };
    const details = toTraceRecord(result({ hints, domainFilter: null }), CONTEXT).retrieval_details;

    expect(details?.l0.domains).toEqual(["billing", "incident-runbooks"]);
    expect(details?.l0.domain_evidence).toEqual([
      { domain: "billing", strength: 1, files: 1 },
      { domain: "incident-runbooks", strength: 1, files: 2 },
    ]);
    expect(details?.l1.domain_filter).toBeNull();
  });

  it("records retrieval details with exactly the documented nested keys", () => {
    const details = toTraceRecord(result(), CONTEXT).retrieval_details;
    if (details === null) throw new Error("expected retrieval details");

    expect(Object.keys(details).sort()).toEqual(
      [
        "candidate_count",
        "content_truncated",
        "evidence",
        "evidence_count",
        "fallback_reason",
        "l0",
        "l1",
        "relevance",
        "retrieval_layer",
      ].sort(),
    );
    expect(details.l0).toEqual({
      matched_titles: ["Restart"],
      matched_keywords: ["drain"],
      domains: ["ops"],
      entities: ["kubectl"],
      domain_evidence: [],
    });
    expect(details.l1).toEqual({ status: "ok", domain_filter: "ops", candidate_count: 3 });
    expect(details.relevance).toEqual({ level: "high", semantic_support: true });
    expect(details).toMatchObject({
      retrieval_layer: "L0+L1",
      fallback_reason: null,
      candidate_count: 4,
      evidence_count: 2,
      content_truncated: false,
    });
    expect(Object.keys(details.evidence[0]).sort()).toEqual([
      "content_preview",
      "hit_reasons",
      "retrieval_layer",
      "score",
      "source",
      "title",
    ]);
    expect(details.evidence[0]).toMatchObject({
      source: "ops/restart.md#drain",
      title: "Restart",
      retrieval_layer: "L0+L1",
      score: 0.93,
    });
    expect(details.evidence[1]).toMatchObject({ title: null, score: null, content_preview: "Short note with spaces." });
  });

  it("keeps at most 200 characters of a long block and never its full content", () => {
    const details = toTraceRecord(result(), CONTEXT).retrieval_details;
    const previewText = details?.evidence[0].content_preview ?? "";

    expect(CONTENT_PREVIEW_CHARS).toBe(200);
    expect(previewText.length).toBeLessThanOrEqual(200);
    expect(previewText.endsWith("…")).toBe(true);
    expect(previewText).not.toContain("THE-END-MARKER");
    expect(JSON.stringify(toTraceRecord(result(), CONTEXT))).not.toContain("THE-END-MARKER");
  });

  it("records the stage durations in milliseconds, rounded to 0.01 ms", () => {
    expect(toTraceRecord(result(), CONTEXT).durations_ms).toEqual({
      l0: 1.23,
      embed: 2.01,
      l1: 4.5,
      merge: 0,
      total: 12.35,
    });
  });

  it("records an embed duration of 0 when the timings have none (a caller from before the embedding was timed apart)", () => {
    const { embedMs: _embed, ...older } = CONTEXT.timings ?? { l0Ms: 0, l1Ms: 0, mergeMs: 0, totalMs: 0 };

    expect(toTraceRecord(result(), { ...CONTEXT, timings: older }).durations_ms?.embed).toBe(0);
  });

  it("records null run ids when the context has none, and the ids it is given otherwise", () => {
    expect(toTraceRecord(result(), CONTEXT)).toMatchObject({ tool_call_id: null, run_id: null, thread_id: null });
    const identity = { toolCallId: "call_7", runId: "01a2342a-7f60-74cc-bb73-2a668d2de105", threadId: "thread-1" };

    expect(toTraceRecord(result(), { ...CONTEXT, identity })).toMatchObject({
      tool_call_id: "call_7",
      run_id: identity.runId,
      thread_id: "thread-1",
    });
  });

  it("records 0 for a stage duration that is negative or not a finite number", () => {
    const record = toTraceRecord(result(), {
      ...CONTEXT,
      timings: { l0Ms: -3, l1Ms: Number.NaN, mergeMs: Number.POSITIVE_INFINITY, totalMs: 2 },
    });

    expect(record.durations_ms).toEqual({ l0: 0, embed: 0, l1: 0, merge: 0, total: 2 });
  });

  it("leaves durations out when the context has no timings", () => {
    const { timings: _timings, ...withoutTimings } = CONTEXT;

    expect(toTraceRecord(result(), withoutTimings)).not.toHaveProperty("durations_ms");
  });

  it("records the L1 error message only when there was one", () => {
    const failed = toTraceRecord(result({ l1Status: "error", fallbackReason: "l1_error" }), {
      ...CONTEXT,
      l1Error: "embedder down",
    });
    const fine = toTraceRecord(result(), CONTEXT);

    expect(failed.retrieval_details?.l1).toEqual({
      status: "error",
      domain_filter: "ops",
      candidate_count: 3,
      error: "embedder down",
    });
    expect(failed.retrieval_details?.fallback_reason).toBe("l1_error");
    expect(fine.retrieval_details?.l1).not.toHaveProperty("error");
  });
});

describe("preview", () => {
  it("collapses whitespace and keeps short text whole", () => {
    expect(preview("  a\n\n b\tc  ")).toBe("a b c");
  });

  it("gives what collapsing the whole text would give, for long and whitespace-heavy text", () => {
    const { text, int } = hostileGenerator(7);
    const naive = (value: string, max: number) => capText(value.replace(/\s+/g, " ").trim(), max);
    const samples = [
      `${" \n\t ".repeat(5_000)}tail`,
      `word${" ".repeat(900)}${"x".repeat(300)}`,
      `${"a \u2028 b\u00a0\u00a0c ".repeat(400)}`,
      `${"y".repeat(799)}\uD83D\uDE00${"z".repeat(400)}`,
      ...Array.from({ length: 200 }, () => text(int(1) === 1, 4)),
    ];

    for (const sample of samples) {
      for (const max of [1, 5, 200]) expect(preview(sample, max)).toBe(naive(sample, max));
    }
  });

  it("cuts text at the limit with an ellipsis as the last character", () => {
    expect(preview("abcdefghij", 5)).toBe("abcd…");
    expect(preview("abcde", 5)).toBe("abcde");
  });
});

describe("toErrorRecord", () => {
  it("records a failed lookup with its error message and no retrieval details", () => {
    const record = toErrorRecord(
      "inv-err",
      {
        toolName: "lookup_knowledge",
        startedAt: 0,
        durationMs: 1.23456,
        input: { query: "q", domain: "it", limit: 3 },
        corpusFingerprint: null,
      },
      new Error("graph exploded"),
    );

    expect(record).toEqual({
      type: "tool_invocation",
      invocation_id: "inv-err",
      tool_call_id: null,
      run_id: null,
      thread_id: null,
      tool_name: "lookup_knowledge",
      started_at: "1970-01-01T00:00:00.000Z",
      duration_ms: 1.23,
      status: "error",
      input: { query: "q", domain: "it", limit: 3 },
      corpus_fingerprint: null,
      index_generation: null,
      access: null,
      error: "graph exploded",
      error_type: "Error",
      retrieval_details: null,
    });
  });

  it("names the failure's class: our error code, else the error's name", () => {
    const context = {
      toolName: "lookup_knowledge",
      startedAt: 0,
      durationMs: 1,
      input: { query: "q", domain: null, limit: 3 },
      corpusFingerprint: null,
    };

    expect(toErrorRecord("a", context, new LookupKnowledgeError("INVALID_INPUT", "bad query")).error_type).toBe(
      "INVALID_INPUT",
    );
    expect(toErrorRecord("b", context, new TypeError("nope")).error_type).toBe("TypeError");
    expect(toErrorRecord("c", context, "a string thrown").error_type).toBe("_OTHER");
  });
});
