import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { describe, expect, it } from "vitest";
import { createKnowledgeRetriever } from "../../src/retriever/knowledge-retriever.js";
import {
  fakeSource,
  FakeL0Searcher,
  makeCandidate,
  NO_HINTS,
  RecordingTraceSink,
  REFUND_CHUNK,
} from "../helpers/retrieval-fakes.js";

class RetrieverRunRecorder extends BaseCallbackHandler {
  name = "retriever_run_recorder";
  readonly runIds: string[] = [];

  override async handleRetrieverStart(_retriever: unknown, _query: string, runId: string) {
    this.runIds.push(runId);
  }
}

describe("the trace line of a retriever query", () => {
  const source = () =>
    fakeSource({ l0: new FakeL0Searcher({ hints: NO_HINTS, candidates: [makeCandidate(REFUND_CHUNK, 2)] }) });

  it("carries the retriever's own run id and the thread id, and no tool call id", async () => {
    const sink = new RecordingTraceSink();
    const recorder = new RetrieverRunRecorder();
    const retriever = createKnowledgeRetriever({ knowledgeBase: source(), traceSink: sink });

    await retriever.invoke("refund window", { callbacks: [recorder], configurable: { thread_id: "thread-r" } });

    expect(recorder.runIds).toHaveLength(1);
    expect(sink.records[0]).toMatchObject({
      tool_name: "lookup_knowledge_retriever",
      tool_call_id: null,
      run_id: recorder.runIds[0],
      thread_id: "thread-r",
    });
  });

  it("records null ids when invoked with no callbacks and no thread", async () => {
    const sink = new RecordingTraceSink();

    await createKnowledgeRetriever({ knowledgeBase: source(), traceSink: sink }).invoke("refund window");

    expect(sink.records[0]).toMatchObject({ tool_call_id: null, run_id: null, thread_id: null });
  });
});
