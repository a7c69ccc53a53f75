import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chunkSearchText } from "../../src/corpus/chunk-text.js";
import {
  createLookupKnowledgeTool,
  KnowledgeBase,
  LookupKnowledgeError,
  type LookupResult,
  type ToolInvocationRecord,
} from "../../src/index.js";
import { createTempDirs, KB_DIR, readJsonl } from "../integration/helpers/integration-fixtures.js";
import { DIMENSIONS, FaultyEmbeddings, GARBAGE_VECTORS, type Fault } from "./helpers/faulty-embeddings.js";
import { recordFigures } from "./helpers/figures.js";

const QUERY = "rotate an API key";
const TIMEOUT_MS = 200;

/** Query-time faults, each with what the L1 error must say. */
const QUERY_FAULTS: { name: string; fault: Fault; reason: RegExp }[] = [
  ...GARBAGE_VECTORS.map((name) => ({
    name: `a vector of ${name}`,
    fault: { kind: "garbage" as const, name },
    reason: /query embedding/,
  })),
  {
    name: "a thrown Error",
    fault: { kind: "throw", error: new Error("HTTP 503 from the embedding service") },
    reason: /HTTP 503/,
  },
  { name: "a thrown string", fault: { kind: "throw", error: "socket hang up" }, reason: /socket hang up/ },
  { name: "a thrown null", fault: { kind: "throw", error: null }, reason: /null/ },
  { name: "a late rejection", fault: { kind: "reject-late", afterMs: 20 }, reason: /reset the connection/ },
  { name: "a promise that never settles", fault: { kind: "hang" }, reason: new RegExp(`within ${TIMEOUT_MS} ms`) },
  {
    name: "an answer after 20 seconds",
    fault: { kind: "slow", afterMs: 20_000 },
    reason: new RegExp(`within ${TIMEOUT_MS} ms`),
  },
];

describe("embeddings that throw, hang or return garbage", () => {
  const temp = createTempDirs();
  const embeddings = new FaultyEmbeddings();
  let kb: KnowledgeBase;

  beforeAll(async () => {
    kb = await KnowledgeBase.build({ corpusDir: KB_DIR, embeddings });
  });
  afterAll(async () => {
    embeddings.dispose();
    await temp.cleanup();
  });

  it("answers every lookup from L0 with the reason in l1.error when a query embedding fails in any way", async () => {
    const tracePath = join(await temp.make(), "tool_invocation.jsonl");
    const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath, l1: { timeoutMs: TIMEOUT_MS } });
    const outcomes: { name: string; result: LookupResult }[] = [];
    const thrown: string[] = [];
    for (const { name, fault } of QUERY_FAULTS) {
      embeddings.queryFault = fault;
      try {
        const message = await lookup.invoke({ type: "tool_call", id: name, name: lookup.name, args: { query: QUERY } });
        outcomes.push({ name, result: message.artifact as LookupResult });
      } catch (error) {
        thrown.push(`${name}: ${String(error)}`);
      }
    }
    embeddings.queryFault = { kind: "none" };
    recordFigures({
      scenario: "faulty query embeddings",
      inputsTried: QUERY_FAULTS.length,
      faultsInjected: QUERY_FAULTS.length,
      crashes: thrown.length,
    });
    expect(thrown).toEqual([]);

    const lines = (await readJsonl(tracePath)) as ToolInvocationRecord[];
    expect(lines).toHaveLength(QUERY_FAULTS.length);
    for (const [i, { name, result }] of outcomes.entries()) {
      const { reason } = QUERY_FAULTS[i];
      expect({ name, status: result.l1Status, fallback: result.fallbackReason }).toEqual({
        name,
        status: "error",
        fallback: "l1_error",
      });
      expect(result.retrievalLayer).toBe("L0");
      expect(result.primary?.source).toMatch(/^access\/api-key-rotation\.md#/);
      expect(result.relevance.semanticSupport).toBe(false);
      const line = lines.find((record) => record.invocation_id === result.invocationId);
      expect(line?.retrieval_details?.l1.status).toBe("error");
      expect({ name, error: line?.retrieval_details?.l1.error }).toEqual({
        name,
        error: expect.stringMatching(reason),
      });
    }
  });

  it("aborts the signal it passed to the embeddings when the L1 timeout fires", async () => {
    const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: null, l1: { timeoutMs: TIMEOUT_MS } });
    embeddings.queryFault = { kind: "hang" };
    const before = embeddings.signals.length;
    await lookup.invoke({ query: QUERY });
    embeddings.queryFault = { kind: "none" };
    const signal = embeddings.signals[before];
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal?.aborted).toBe(true);
  });

  it.each([
    ["a typed array", { kind: "typed-array" as const }],
    ["a vector whose own iterator yields nulls", { kind: "own-iterator" as const }],
    ["a proxy whose elements turn into strings when read again", { kind: "second-read-differs" as const }],
  ])("uses %s of the right length by its elements", async (_name, fault) => {
    const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: null });
    embeddings.queryFault = fault;
    const message = await lookup.invoke({ type: "tool_call", id: "typed", name: lookup.name, args: { query: QUERY } });
    embeddings.queryFault = { kind: "none" };
    expect((message.artifact as LookupResult).l1Status).toBe("ok");
  });

  it("answers from L1 again once the embeddings recover", async () => {
    const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: null });
    const message = await lookup.invoke({
      type: "tool_call",
      id: "healthy",
      name: lookup.name,
      args: { query: QUERY },
    });
    expect((message.artifact as LookupResult).l1Status).toBe("ok");
  });
});

/** Build-time faults: the batch that misbehaves (batches of 4 texts) and the error it must give. */
const BUILD_FAULTS: {
  name: string;
  batch: number;
  fault: Fault | "one-too-few" | "one-too-many" | "own-map";
  code: string;
  message: RegExp;
}[] = [
  {
    name: "one vector too few",
    batch: 2,
    fault: "one-too-few",
    code: "EMBEDDINGS_INVALID",
    message: /3 vectors for 4 texts in batch 3 /,
  },
  {
    name: "one vector too many",
    batch: 1,
    fault: "one-too-many",
    code: "EMBEDDINGS_INVALID",
    message: /5 vectors for 4 texts in batch 2 /,
  },
  ...GARBAGE_VECTORS.map((name) => ({
    name: `a vector of ${name}`,
    batch: 3,
    fault: { kind: "garbage" as const, name },
    code: "EMBEDDINGS_INVALID",
    message: /of batch 4 /,
  })),
  {
    name: "a thrown Error",
    batch: 0,
    fault: { kind: "throw", error: new Error("quota exceeded") },
    code: "EMBEDDINGS_FAILED",
    message: /batch 1 .*quota exceeded/,
  },
  {
    name: "a thrown string",
    batch: 2,
    fault: { kind: "throw", error: "ECONNRESET" },
    code: "EMBEDDINGS_FAILED",
    message: /batch 3 .*ECONNRESET/,
  },
  {
    name: "a batch that never answers",
    batch: 1,
    fault: { kind: "hang" },
    code: "EMBEDDINGS_TIMEOUT",
    message: /batch 2 .*within 200 ms/,
  },
];

describe("embeddings that misbehave while an index is built", () => {
  it("refuses every bad batch with an error naming the batch, and builds nothing", async () => {
    const errors: unknown[] = [];
    for (const { batch, fault } of BUILD_FAULTS) {
      const embeddings = new FaultyEmbeddings();
      embeddings.batchFaults.set(batch, fault);
      const built = KnowledgeBase.build({ corpusDir: KB_DIR, embeddings, embedBatchSize: 4, embedTimeoutMs: 200 });
      errors.push(
        await built.then(
          () => null,
          (reason: unknown) => reason,
        ),
      );
      embeddings.dispose();
    }
    // A fault that built anyway, or failed with anything but our error, is a loss.
    const unclear = errors.filter((error) => !(error instanceof LookupKnowledgeError)).length;
    recordFigures({
      scenario: "faulty document embeddings at build",
      inputsTried: BUILD_FAULTS.length,
      faultsInjected: BUILD_FAULTS.length,
      crashes: unclear,
    });
    for (const [i, { name, code, message }] of BUILD_FAULTS.entries()) {
      const error = errors[i] as LookupKnowledgeError | null;
      expect({ name, isLookupError: error instanceof LookupKnowledgeError }).toEqual({ name, isLookupError: true });
      expect({ name, code: error?.code }).toEqual({ name, code });
      expect({ name, message: error?.message }).toEqual({ name, message: expect.stringMatching(message) });
    }
  });

  it.each([
    ["healthy", null],
    ["healthy but return lists with their own map method", "own-map" as const],
  ])("builds an index whose every chunk finds itself when the embeddings are %s", async (_name, fault) => {
    const embeddings = new FaultyEmbeddings();
    if (fault !== null) embeddings.batchFaults.set(1, fault);
    const kb = await KnowledgeBase.build({ corpusDir: KB_DIR, embeddings, embedBatchSize: 4 });
    expect(kb.settings.embedder.dimensions).toBe(DIMENSIONS);
    let found = 0;
    for (const chunk of kb.chunks) {
      const [hit] = (await kb.l1?.search(chunkSearchText(chunk), { domain: null, k: 1, minScore: -1 })) ?? [];
      if (hit?.chunk.source === chunk.source) found++;
    }
    expect(found).toBe(kb.chunks.length);
  });
});
