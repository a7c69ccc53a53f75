import { describe, expect, it } from "vitest";
import { toOtelSpan } from "../../src/trace/otel-span.js";
import { toErrorRecord, toTraceRecord } from "../../src/trace/trace-record.js";
import { LookupKnowledgeError } from "../../src/errors.js";
import { block, lookupResult } from "./trace-inputs.js";

const IDENTITY = { toolCallId: "call_1", runId: "0190a000-0000-7000-8000-000000000001", threadId: "thread-1" };
const CONTEXT = {
  toolName: "lookup_knowledge",
  startedAt: Date.UTC(2026, 11, 1, 8, 0, 0, 250),
  durationMs: 12.5,
  input: { query: "secret customer question", domain: "billing", limit: 5 },
  corpusFingerprint: "fp-1",
  l1CandidateCount: 1,
  l1Error: null,
  timings: { l0Ms: 1, embedMs: 2, l1Ms: 3, mergeMs: 0.5, totalMs: 7 },
  identity: IDENTITY,
};

describe("toOtelSpan", () => {
  it("maps a success record onto an execute_tool span with the GenAI attribute names", () => {
    const record = toTraceRecord(lookupResult([block()]), CONTEXT);
    const span = toOtelSpan(record);

    expect(span).toMatchObject({
      name: "execute_tool lookup_knowledge",
      kind: "INTERNAL",
      startTimeUnixNano: `${Date.UTC(2026, 11, 1, 8, 0, 0, 250)}000000`,
      endTimeUnixNano: `${Date.UTC(2026, 11, 1, 8, 0, 0, 250) + 12}500000`,
      status: { code: "UNSET" },
    });
    expect(span.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "lookup_knowledge",
      "gen_ai.tool.type": "function",
      "gen_ai.tool.call.id": "call_1",
      "gen_ai.conversation.id": "thread-1",
      "lookup_knowledge.run_id": IDENTITY.runId,
      "lookup_knowledge.retrieval_layer": "L0+L1",
      "lookup_knowledge.input.domain": "billing",
      "lookup_knowledge.evidence.sources": ["ops/restart.md#drain"],
      "lookup_knowledge.duration_ms.embed": 2,
    });
    expect(span.attributes).not.toHaveProperty("error.type");
  });

  it("marks an error record ERROR with its error.type and message", () => {
    const span = toOtelSpan(
      toErrorRecord("inv-e", CONTEXT, new LookupKnowledgeError("EMBEDDINGS_TIMEOUT", "too slow")),
    );

    expect(span.status).toEqual({ code: "ERROR", message: "lookup-knowledge: too slow" });
    expect(span.attributes["error.type"]).toBe("EMBEDDINGS_TIMEOUT");
    expect(span.attributes).not.toHaveProperty("lookup_knowledge.retrieval_layer");
  });

  it("leaves out the ids a record does not have, the query text and the evidence previews", () => {
    const span = toOtelSpan(
      toTraceRecord(lookupResult([block({ content: "PRIVATE CONTENT" })]), { ...CONTEXT, identity: undefined }),
    );

    expect(span.attributes).not.toHaveProperty("gen_ai.tool.call.id");
    expect(span.attributes).not.toHaveProperty("gen_ai.conversation.id");
    expect(JSON.stringify(span)).not.toContain("secret customer question");
    expect(JSON.stringify(span)).not.toContain("PRIVATE CONTENT");
  });

  it("leaves the record and its retrieval_details unchanged", () => {
    const record = toTraceRecord(lookupResult([block()]), CONTEXT);
    const before = JSON.stringify(record);

    toOtelSpan(record);

    expect(JSON.stringify(record)).toBe(before);
  });
});
