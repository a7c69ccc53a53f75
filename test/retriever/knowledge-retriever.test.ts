import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { BaseRetriever } from "@langchain/core/retrievers";
import { describe, expect, it } from "vitest";
import type { L1SearchOptions, L1Searcher } from "../../src/l1/l1-search.js";
import {
  createKnowledgeRetriever,
  DEFAULT_RETRIEVER_NAME,
  KnowledgeBaseRetriever,
} from "../../src/retriever/knowledge-retriever.js";
import type { Candidate } from "../../src/types.js";
import {
  ACCESS_CHUNK,
  FakeL0Searcher,
  FakeL1Searcher,
  fakeSource,
  makeCandidate,
  NO_HINTS,
  RecordingTraceSink,
  REFUND_CHUNK,
} from "../helpers/retrieval-fakes.js";

function source(domains?: readonly string[], l1: L1Searcher = new FakeL1Searcher([makeCandidate(REFUND_CHUNK, 0.8)])) {
  const l0 = new FakeL0Searcher({
    hints: NO_HINTS,
    candidates: [makeCandidate(REFUND_CHUNK, 3, { coverage: 1 }), makeCandidate(ACCESS_CHUNK, 1, { coverage: 0.5 })],
  });
  return { l0, l1, kb: fakeSource({ l0, l1, ...(domains ? { domains } : {}) }) };
}

/** An L1 layer that rejects when the lookup's signal aborts, or after two seconds without an abort. */
class SignalWaitingL1 implements L1Searcher {
  readonly signals: (AbortSignal | undefined)[] = [];

  search(_query: string, options: L1SearchOptions): Promise<Candidate[]> {
    this.signals.push(options.signal);
    return new Promise((_, reject) => {
      const timer = setTimeout(() => reject(new Error("never aborted")), 2000);
      options.signal?.addEventListener("abort", () => (clearTimeout(timer), reject(new Error("aborted"))), {
        once: true,
      });
    });
  }
}

/** Records the runs it sees with their parents (arguments in the order CallbackManager passes them). */
class RunRecorder extends BaseCallbackHandler {
  name = "run_recorder";
  readonly runs: { kind: string; runId: unknown; parentRunId: unknown; name: unknown }[] = [];

  override handleRetrieverStart(...args: unknown[]) {
    this.runs.push({ kind: "retriever", runId: args[2], parentRunId: args[3], name: args[6] });
  }

  override handleChainStart(...args: unknown[]) {
    this.runs.push({ kind: "chain", runId: args[2], parentRunId: args[3], name: args[7] });
  }
}

describe("createKnowledgeRetriever", () => {
  it("is a LangChain BaseRetriever named lookup_knowledge_retriever by default", () => {
    const retriever = createKnowledgeRetriever({ knowledgeBase: source().kb, tracePath: null });

    expect(retriever).toBeInstanceOf(BaseRetriever);
    expect(retriever).toBeInstanceOf(KnowledgeBaseRetriever);
    expect(retriever.getName()).toBe(DEFAULT_RETRIEVER_NAME);
    expect(retriever.limit).toBe(5);
    expect(retriever.domain).toBeNull();
  });

  it("returns the lookup's evidence as Documents with metadata, in rank order", async () => {
    const retriever = createKnowledgeRetriever({ knowledgeBase: source().kb, tracePath: null });

    const docs = await retriever.invoke("refund window");

    expect(docs.map((doc) => doc.metadata.source)).toEqual([REFUND_CHUNK.source, ACCESS_CHUNK.source]);
    expect(docs[0].pageContent).toBe(REFUND_CHUNK.content);
    expect(docs[0].metadata).toMatchObject({
      layer: "L0+L1",
      rank: 1,
      termCoverage: 1,
      breadcrumb: ["Refunds", "Refund window"],
      relevance: expect.any(String),
    });
  });

  it("asks every lookup for its limit and domain, the domain trimmed and lower-cased", async () => {
    const { l0, l1, kb } = source(["billing", "it"]);
    const retriever = createKnowledgeRetriever({ knowledgeBase: kb, tracePath: null, limit: 1, domain: " Billing " });

    const docs = await retriever.invoke("refund");

    expect(docs).toHaveLength(1);
    expect(l0.calls[0].options.domain).toBe("billing");
    expect((l1 as FakeL1Searcher).calls[0].options.domain).toBe("billing");
    expect(docs[0].metadata.domainFilter).toBe("billing");
  });

  it("appends one trace line per query under its name, and an error line for a query the tool would refuse", async () => {
    const sink = new RecordingTraceSink();
    const retriever = createKnowledgeRetriever({
      knowledgeBase: source().kb,
      traceSink: sink,
      name: "billing_retriever",
    });

    const docs = await retriever.invoke("refund");
    await expect(retriever.invoke("")).rejects.toThrow(expect.objectContaining({ code: "INVALID_INPUT" }));

    expect(sink.records).toEqual([
      expect.objectContaining({
        tool_name: "billing_retriever",
        status: "success",
        invocation_id: docs[0].metadata.invocationId,
      }),
      expect.objectContaining({ tool_name: "billing_retriever", status: "error" }),
    ]);
  });

  it("runs the retrieval graph as a child run of the retriever's run", async () => {
    const recorder = new RunRecorder();
    const retriever = createKnowledgeRetriever({ knowledgeBase: source().kb, tracePath: null });

    await retriever.invoke("refund", { callbacks: [recorder] });

    const retrieverRun = recorder.runs.find((run) => run.kind === "retriever");
    const graphRun = recorder.runs.find((run) => run.kind === "chain" && run.name === "lookup_knowledge_retrieval");
    expect(retrieverRun?.name).toBe(DEFAULT_RETRIEVER_NAME);
    expect(graphRun?.parentRunId).toBe(retrieverRun?.runId);
  });

  it("hands the invoke's signal to the dense search and stops when it aborts", async () => {
    const l1 = new SignalWaitingL1();
    const retriever = createKnowledgeRetriever({
      knowledgeBase: source(undefined, l1).kb,
      tracePath: null,
      l1: { timeoutMs: 0 },
    });
    const controller = new AbortController();

    const docs = retriever.invoke("refund", { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("user cancelled")), 20);

    await expect(docs).rejects.toThrow();
    expect(l1.signals).toHaveLength(1);
    expect(l1.signals[0]?.aborted).toBe(true);
  });

  it("turns the invoke's timeout into the signal the dense search gets", async () => {
    const l1 = new SignalWaitingL1();
    const retriever = createKnowledgeRetriever({
      knowledgeBase: source(undefined, l1).kb,
      tracePath: null,
      l1: { timeoutMs: 0 },
    });

    await expect(retriever.invoke("refund", { timeout: 30 })).rejects.toThrow();
    expect(l1.signals[0]?.aborted).toBe(true);
  });

  describe("options", () => {
    it.each([
      ["a limit of 0", { limit: 0 }, "option limit must be an integer from 1 to 20"],
      ["a limit above maxLimit", { limit: 4, maxLimit: 3 }, "option limit must be an integer from 1 to 3"],
      ["a fractional limit", { limit: 1.5 }, "option limit"],
      ["a blank domain", { domain: "  " }, "option domain must be a domain name"],
      ["a domain of 101 characters", { domain: "x".repeat(101) }, "option domain must be a domain name"],
      [
        "a domain the base does not have",
        { domain: "marketing" },
        'option domain "marketing" is not a domain of the knowledge base; known domains: billing, it.',
      ],
      ["an invalid name", { name: "billing retriever" }, "option name must be 1 to 64 characters"],
      ["a retrieval option out of range", { l1: { k: 0 } }, "option l1.k"],
    ])("refuses %s with INVALID_OPTION", (_label, options, message) => {
      expect(() =>
        createKnowledgeRetriever({ knowledgeBase: source(["billing", "it"]).kb, tracePath: null, ...options }),
      ).toThrow(expect.objectContaining({ code: "INVALID_OPTION", message: expect.stringContaining(message) }));
    });

    it("takes any domain when the base lists none", () => {
      expect(createKnowledgeRetriever({ knowledgeBase: source().kb, tracePath: null, domain: "Ops" }).domain).toBe(
        "ops",
      );
    });

    it("keeps the default limit within a smaller maxLimit", () => {
      expect(createKnowledgeRetriever({ knowledgeBase: source().kb, tracePath: null, maxLimit: 3 }).limit).toBe(3);
    });

    it("refuses a missing knowledge base with INVALID_OPTION", () => {
      expect(() => createKnowledgeRetriever({ tracePath: null } as never)).toThrow(
        expect.objectContaining({ code: "INVALID_OPTION" }),
      );
    });
  });
});
