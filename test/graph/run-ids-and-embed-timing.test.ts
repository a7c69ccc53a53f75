import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createRetrievalGraph } from "../../src/graph/retrieval-graph.js";
import type { L1SearchOptions, L1Searcher } from "../../src/l1/l1-search.js";
import type { Candidate } from "../../src/types.js";
import {
  fakeSource,
  FakeL0Searcher,
  makeCandidate,
  NO_HINTS,
  RecordingTraceSink,
  REFUND_CHUNK,
} from "../helpers/retrieval-fakes.js";

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

class ChainRunRecorder extends BaseCallbackHandler {
  name = "chain_run_recorder";
  readonly runs: { name: string | undefined; runId: string; parent: string | undefined }[] = [];

  override async handleChainStart(
    _chain: unknown,
    _inputs: unknown,
    runId: string,
    parent?: string,
    _tags?: string[],
    _metadata?: Record<string, unknown>,
    _type?: string,
    name?: string,
  ) {
    this.runs.push({ name, runId, parent });
  }
}

const l0 = () => new FakeL0Searcher({ hints: NO_HINTS, candidates: [makeCandidate(REFUND_CHUNK, 2)] });

describe("createRetrievalGraph invoked directly: the run ids of its trace line", () => {
  it("records the run id given in the config and the thread id", async () => {
    const sink = new RecordingTraceSink();
    const graph = createRetrievalGraph({ knowledgeBase: fakeSource({ l0: l0() }), traceSink: sink });

    await graph.invoke(
      { query: "refund" },
      { runId: "0190a000-0000-7000-8000-000000000001", configurable: { thread_id: "th-3" } },
    );

    expect(sink.records[0]).toMatchObject({
      tool_call_id: null,
      run_id: "0190a000-0000-7000-8000-000000000001",
      thread_id: "th-3",
    });
  });

  it("gives the graph run a new UUID v7 when the caller has none, the id a tracer sees for the graph's run", async () => {
    const sink = new RecordingTraceSink();
    const recorder = new ChainRunRecorder();
    const graph = createRetrievalGraph({ knowledgeBase: fakeSource({ l0: l0() }), traceSink: sink });

    await graph.invoke({ query: "refund" }, { callbacks: [recorder] });

    const root = recorder.runs.find((run) => run.parent === undefined);
    expect(root?.name).toBe("lookup_knowledge_retrieval");
    expect(sink.records[0].run_id).toBe(root?.runId);
    expect(sink.records[0].run_id).toMatch(UUID_V7);
  });

  it("still runs the same five-node path, one step per node", async () => {
    const recorder = new ChainRunRecorder();
    const graph = createRetrievalGraph({ knowledgeBase: fakeSource({ l0: l0() }), tracePath: null });

    await graph.invoke({ query: "refund" }, { callbacks: [recorder] });

    const root = recorder.runs.find((run) => run.parent === undefined);
    const nodes = recorder.runs
      .filter((run) => run.parent === root?.runId && run.name !== "__start__")
      .map((run) => run.name);
    expect(nodes).toEqual(["l0_hints", "l1_search", "l0_fallback", "dedupe_and_trace"]);
  });
});

/** An L1 searcher that spends `embedMs` of the (faked) clock before the vector is ready and `searchMs` after. */
class TimedL1Searcher implements L1Searcher {
  constructor(
    private readonly clock: { now: number },
    private readonly embedMs: number,
    private readonly searchMs: number,
    private readonly signals: boolean,
  ) {}

  async search(_query: string, options: L1SearchOptions): Promise<Candidate[]> {
    this.clock.now += this.embedMs;
    if (this.signals) options.onQueryEmbedded?.();
    this.clock.now += this.searchMs;
    return [makeCandidate(REFUND_CHUNK, 0.8)];
  }
}

describe("the L1 node's timings: embedding and search apart", () => {
  afterEach(() => vi.restoreAllMocks());

  async function timingsWith(signals: boolean) {
    const clock = { now: 1_000 };
    vi.spyOn(performance, "now").mockImplementation(() => clock.now);
    const sink = new RecordingTraceSink();
    const graph = createRetrievalGraph({
      knowledgeBase: fakeSource({ l0: l0(), l1: new TimedL1Searcher(clock, 5, 2, signals) }),
      traceSink: sink,
    });
    const { result } = await graph.invoke({ query: "refund" });
    return { timings: result?.timings, durations: sink.records[0].durations_ms };
  }

  it("splits the node where the searcher says the query vector is ready", async () => {
    const { timings, durations } = await timingsWith(true);

    expect(timings).toMatchObject({ embedMs: 5, l1Ms: 2 });
    expect(durations).toMatchObject({ embed: 5, l1: 2 });
  });

  it("counts the whole call as search when the searcher never says", async () => {
    const { timings } = await timingsWith(false);

    expect(timings).toMatchObject({ embedMs: 0, l1Ms: 7 });
  });
});
