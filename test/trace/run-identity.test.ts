import { CallbackManager } from "@langchain/core/callbacks/manager";
import { describe, expect, it } from "vitest";
import { idOf, newRunId, threadIdOf, toolRunIdentity } from "../../src/trace/run-identity.js";
import { serializeTraceLine } from "../../src/trace/trace-line.js";
import { toTraceRecord } from "../../src/trace/trace-record.js";
import { block, lineBytes, LIMIT_BYTES, lookupResult } from "./trace-inputs.js";

describe("toolRunIdentity", () => {
  it("reads the ToolCall id, the parent run id of the tool's child callbacks, and the thread id", () => {
    const callbacks = new CallbackManager("0190a000-0000-7000-8000-00000000abcd");

    expect(toolRunIdentity({ toolCall: { id: "call_9" }, callbacks, configurable: { thread_id: "t-9" } })).toEqual({
      toolCallId: "call_9",
      runId: "0190a000-0000-7000-8000-00000000abcd",
      threadId: "t-9",
    });
  });

  it("gives null for every id a config does not hold, whatever its shape", () => {
    for (const config of [
      undefined,
      null,
      {},
      { toolCall: {} },
      { callbacks: [] },
      { configurable: { thread_id: {} } },
      { toolCall: { id: "  " } },
    ]) {
      expect(toolRunIdentity(config)).toEqual({ toolCallId: null, runId: null, threadId: null });
    }
  });
});

describe("idOf and threadIdOf", () => {
  it("accept strings and finite numbers and cut an id to 128 characters", () => {
    expect(idOf(" a ")).toBe("a");
    expect(idOf(42)).toBe("42");
    expect(idOf(Number.NaN)).toBeNull();
    expect(idOf("x".repeat(500))).toHaveLength(128);
    expect(threadIdOf({ configurable: { thread_id: 7 } })).toBe("7");
  });
});

describe("newRunId", () => {
  it("makes a UUID v7 that carries its creation time in its first 48 bits", () => {
    const now = Date.UTC(2026, 11, 2, 10, 0, 0, 123);
    const id = newRunId(now);

    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.parseInt(id.replace(/-/g, "").slice(0, 12), 16)).toBe(now);
    expect(newRunId(now)).not.toBe(id);
  });
});

describe("run ids in a bounded trace line", () => {
  it("keep the line within MAX_TRACE_LINE_BYTES when the ids are as long as they may be", () => {
    const identity = { toolCallId: "c".repeat(128), runId: "r".repeat(128), threadId: "t".repeat(128) };
    const huge = lookupResult(
      Array.from({ length: 60 }, (_, i) => block({ source: `s${i}`.repeat(100), content: "x".repeat(5_000) })),
    );
    const record = toTraceRecord(huge, {
      toolName: "lookup_knowledge",
      startedAt: 0,
      durationMs: 1,
      input: { query: "q", domain: null, limit: 5 },
      corpusFingerprint: null,
      l1CandidateCount: 0,
      l1Error: null,
      identity,
    });
    const line = serializeTraceLine(record);

    expect(lineBytes(record)).toBeLessThanOrEqual(LIMIT_BYTES);
    expect(line.ok && JSON.parse(line.line)).toMatchObject({
      tool_call_id: identity.toolCallId,
      run_id: identity.runId,
      thread_id: identity.threadId,
    });
  });
});
