import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent, FakeToolCallingModel, HumanMessage, ToolMessage } from "langchain";
import { describe, expect, it } from "vitest";
import { createLookupKnowledgeTool } from "../../src/tool/lookup-knowledge-tool.js";
import {
  fakeSource,
  FakeL0Searcher,
  makeCandidate,
  RecordingTraceSink,
  REFUND_CHUNK,
} from "../helpers/retrieval-fakes.js";

/** Records the run id and tool call id LangChain reports for every tool run. */
class ToolRunRecorder extends BaseCallbackHandler {
  name = "tool_run_recorder";
  readonly runs: { runId: string; toolCallId: string | undefined }[] = [];

  override async handleToolStart(
    _tool: unknown,
    _input: string,
    runId: string,
    _parent?: string,
    _tags?: string[],
    _metadata?: Record<string, unknown>,
    _name?: string,
    toolCallId?: string,
  ) {
    this.runs.push({ runId, toolCallId });
  }
}

function agentWith(sink: RecordingTraceSink, callId: string, checkpointer?: MemorySaver) {
  const lookup = createLookupKnowledgeTool({
    knowledgeBase: fakeSource({
      l0: new FakeL0Searcher({
        hints: { titles: [], keywords: [], domains: [], entities: [] },
        candidates: [makeCandidate(REFUND_CHUNK, 2)],
      }),
    }),
    traceSink: sink,
  });
  const model = new FakeToolCallingModel({
    toolCalls: [[{ name: "lookup_knowledge", args: { query: "refund window" }, id: callId }], []],
  });
  return createAgent({ model, tools: [lookup], ...(checkpointer ? { checkpointer } : {}) });
}

describe("the trace line of a lookup made inside createAgent", () => {
  it("carries the tool_call_id of its ToolCall and the run id of the tool's run", async () => {
    const sink = new RecordingTraceSink();
    const recorder = new ToolRunRecorder();

    const { messages } = await agentWith(sink, "call_lookup_7").invoke(
      { messages: [new HumanMessage("refunds?")] },
      { callbacks: [recorder] },
    );

    const toolMessage = messages.find((message) => ToolMessage.isInstance(message)) as ToolMessage;
    expect(toolMessage.tool_call_id).toBe("call_lookup_7");
    expect(recorder.runs).toHaveLength(1);
    expect(sink.records).toHaveLength(1);
    expect(sink.records[0]).toMatchObject({
      tool_call_id: "call_lookup_7",
      run_id: recorder.runs[0].runId,
      thread_id: null,
    });
    expect(recorder.runs[0].toolCallId).toBe("call_lookup_7");
  });

  it("carries the thread_id the agent was invoked with", async () => {
    const sink = new RecordingTraceSink();

    await agentWith(sink, "call_lookup_8", new MemorySaver()).invoke(
      { messages: [new HumanMessage("refunds?")] },
      { configurable: { thread_id: "support-thread-42" } },
    );

    expect(sink.records[0]).toMatchObject({ tool_call_id: "call_lookup_8", thread_id: "support-thread-42" });
  });

  it("records a null run id when LangChain made no run for the tool (no callback handler, no tracer)", async () => {
    const sink = new RecordingTraceSink();

    await agentWith(sink, "call_lookup_9").invoke({ messages: [new HumanMessage("refunds?")] });

    expect(sink.records[0]).toMatchObject({ tool_call_id: "call_lookup_9", run_id: null, thread_id: null });
  });

  it("puts the ids in the error line of a lookup that fails", async () => {
    const sink = new RecordingTraceSink();
    const lookup = createLookupKnowledgeTool({
      knowledgeBase: fakeSource({
        l0: {
          search: () => {
            throw new Error("index gone");
          },
        },
      }),
      traceSink: sink,
    });

    await expect(
      lookup.invoke(
        { type: "tool_call", id: "call_broken", name: "lookup_knowledge", args: { query: "refund" } },
        { configurable: { thread_id: "t-1" } },
      ),
    ).rejects.toThrow("index gone");

    expect(sink.records[0]).toMatchObject({
      status: "error",
      error_type: "Error",
      tool_call_id: "call_broken",
      thread_id: "t-1",
    });
  });
});
