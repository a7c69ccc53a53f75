import type { DocumentInterface } from "@langchain/core/documents";
import { Embeddings } from "@langchain/core/embeddings";
import { VectorStore } from "@langchain/core/vectorstores";
import { describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../../src/errors.js";
import type { L1SearchOptions } from "../../../src/l1/l1-search.js";
import type { RowScope, VectorStoreDialect } from "../../../src/l1/vector-store/vector-store-dialect.js";
import { createVectorStoreL1Searcher } from "../../../src/l1/vector-store/vector-store-l1.js";
import { tokenize } from "../../../src/text/tokenize.js";
import { makeChunk } from "../../helpers/retrieval-fakes.js";

const D = 3;
const QUERY_VECTOR = [0.6, 0.8, 0];

/** Query embeddings that answer a fixed vector, or fail in the way asked. */
class ScriptedEmbeddings extends Embeddings {
  queries = 0;
  constructor(private readonly mode: "ok" | "throw" | "hang" | "wrong-length" = "ok") {
    super({});
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map(() => QUERY_VECTOR);
  }
  async embedQuery(): Promise<number[]> {
    this.queries++;
    if (this.mode === "throw") throw new Error("embedding service returned 503");
    if (this.mode === "hang") return new Promise<never>(() => {});
    return this.mode === "wrong-length" ? [1, 0] : QUERY_VECTOR;
  }
}

type Answer = (vector: number[], k: number, filter: unknown) => unknown;

/** A vector store whose search answers whatever the test scripts (garbage included), recording each call. */
class ScriptedVectorStore extends VectorStore {
  readonly calls: { vector: number[]; k: number; filter: unknown; arity: number }[] = [];
  constructor(private readonly answer: Answer) {
    super(new ScriptedEmbeddings(), {});
  }
  _vectorstoreType(): string {
    return "scripted";
  }
  async addVectors(): Promise<void> {}
  async addDocuments(): Promise<void> {}
  similaritySearchVectorWithScore(...args: [number[], number, unknown?]): Promise<[DocumentInterface, number][]> {
    const [vector, k, filter] = args;
    this.calls.push({ vector, k, filter, arity: args.length });
    return this.answer(vector, k, filter) as Promise<[DocumentInterface, number][]>;
  }
}

/** A dialect whose scores are distances (similarity = 1 − score), recording the scopes it writes filters for. */
function distanceDialect(): VectorStoreDialect & { filters: RowScope[]; stores: unknown[] } {
  const filters: RowScope[] = [];
  const stores: unknown[] = [];
  return {
    name: "fake",
    filters,
    stores,
    filter: (scope) => {
      filters.push(scope);
      return { where: scope };
    },
    similarity: (score, store) => {
      stores.push(store);
      return 1 - score;
    },
  };
}

const CHUNKS = [
  makeChunk("billing/refunds.md#window", {
    content: "Refunds are accepted within 30 days.",
    meta: { domain: "billing" },
  }),
  makeChunk("ops/deploy.md#freeze", { content: "Deploys freeze on Fridays.", meta: { domain: "ops" } }),
  makeChunk("billing/invoices.md#late", { content: "Late invoices pay a fee.", meta: { domain: "billing" } }),
  makeChunk("readme.md#top", { content: "Start here." }),
];
const ROW_OF = ["row-refunds", "row-deploy", "row-invoices", "row-readme"];
const CHUNK_OF_ROW = new Map(ROW_OF.map((row, i) => [row, i]));
const ROWS = { namespace: "handbook", generation: "0123456789abcdef" };

/** A row as a store returns it: a document whose metadata carries the row id. */
function row(chunk: number, extra: Record<string, unknown> = {}): DocumentInterface {
  return {
    pageContent: CHUNKS[chunk].content,
    metadata: { lk_kind: "chunk", lk_id: ROW_OF[chunk], domain: CHUNKS[chunk].meta.domain ?? null, ...extra },
  };
}

const OPTIONS: L1SearchOptions = { domain: null, k: 5, minScore: -1 };

function searcherWith(
  answer: Answer,
  parts: {
    embeddings?: Embeddings;
    dialect?: VectorStoreDialect;
    coverage?: (terms: readonly string[], id: number) => number;
  } = {},
) {
  const store = new ScriptedVectorStore(answer);
  const dialect = parts.dialect ?? distanceDialect();
  const embeddings = parts.embeddings ?? new ScriptedEmbeddings();
  const searcher = createVectorStoreL1Searcher({
    store,
    dialect,
    chunks: CHUNKS,
    chunkOfRow: CHUNK_OF_ROW,
    rows: ROWS,
    embeddings,
    dimensions: D,
    ...(parts.coverage ? { coverage: parts.coverage } : {}),
  });
  return { searcher, store, dialect, embeddings };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("the search resolved"),
    (error: unknown) => error,
  );
}

describe("createVectorStoreL1Searcher", () => {
  it("maps the store's rows back to chunks by lk_id, with the dialect's similarity, best first", async () => {
    const { searcher, store, dialect } = searcherWith(async () => [
      [row(2), 0.5],
      [row(0), 0.1],
      [row(3), 0.3],
    ]);
    const hits = await searcher.search("refund window", OPTIONS);
    expect(hits.map((hit) => [hit.id, hit.chunk.source])).toEqual([
      [0, "billing/refunds.md#window"],
      [3, "readme.md#top"],
      [2, "billing/invoices.md#late"],
    ]);
    expect(hits.map((hit) => hit.score)).toEqual([0.9, 0.7, 0.5]);
    expect(hits[0].chunk).toBe(CHUNKS[0]);
    expect(hits[0].hitReasons).toEqual(["L1:similarity:0.90"]);
    expect(hits[0]).not.toHaveProperty("coverage");
    expect((dialect as ReturnType<typeof distanceDialect>).stores.every((seen) => seen === store)).toBe(true);
  });

  it("asks the store with the query's vector and k, filtered on the namespace and generation alone when the lookup has no domain", async () => {
    const { searcher, store, dialect } = searcherWith(async () => []);
    await searcher.search("refund window", { ...OPTIONS, k: 7 });
    const scope = { namespace: "handbook", generation: "0123456789abcdef", domain: null, access: null };
    expect(store.calls).toEqual([{ vector: QUERY_VECTOR, k: 7, filter: { where: scope }, arity: 3 }]);
    expect((dialect as ReturnType<typeof distanceDialect>).filters).toEqual([scope]);
  });

  it("passes the dialect's filter of the namespace, generation and domain to the store and names the domain in each hit's reasons", async () => {
    const { searcher, store, dialect } = searcherWith(async () => [[row(0), 0.2]]);
    const hits = await searcher.search("refund window", { ...OPTIONS, domain: "billing" });
    const scope = { namespace: "handbook", generation: "0123456789abcdef", domain: "billing", access: null };
    expect(store.calls[0].filter).toEqual({ where: scope });
    expect((dialect as ReturnType<typeof distanceDialect>).filters).toEqual([scope]);
    expect(hits[0].hitReasons).toEqual(["L1:similarity:0.80", "L1:domain_filter:billing"]);
  });

  it("asks the dialect for a filter on every search, with that search's domain", async () => {
    const { searcher, dialect } = searcherWith(async () => []);
    await searcher.search("refunds", { ...OPTIONS, domain: "billing" });
    await searcher.search("deploys", { ...OPTIONS, domain: "ops" });
    await searcher.search("anything", OPTIONS);
    expect((dialect as ReturnType<typeof distanceDialect>).filters.map((scope) => scope.domain)).toEqual([
      "billing",
      "ops",
      null,
    ]);
  });

  it("fails with VECTOR_STORE_FAILED, never asking the store, when the dialect's filter throws", async () => {
    const cause = new RangeError("domain names must be ASCII");
    const dialect: VectorStoreDialect = {
      ...distanceDialect(),
      filter: () => {
        throw cause;
      },
    };
    const { searcher, store } = searcherWith(async () => [[row(0), 0.1]], { dialect });
    const error = await rejection(searcher.search("anything", { ...OPTIONS, domain: "billing" }));
    expect(error).toBeInstanceOf(LookupKnowledgeError);
    expect(error).toMatchObject({
      code: "VECTOR_STORE_FAILED",
      message: "lookup-knowledge: the fake vector store failed: domain names must be ASCII",
      cause,
    });
    expect(store.calls).toEqual([]);
  });

  it("fails with VECTOR_STORE_FAILED when the dialect's filter throws something that is not an Error", async () => {
    const dialect: VectorStoreDialect = {
      ...distanceDialect(),
      filter: () => {
        throw "no filter for you";
      },
    };
    const { searcher } = searcherWith(async () => [[row(0), 0.1]], { dialect });
    expect(await rejection(searcher.search("anything", OPTIONS))).toMatchObject({
      code: "VECTOR_STORE_FAILED",
      message: expect.stringContaining("failed: no filter for you"),
    });
  });

  it("drops a row of another domain that the store returned despite the filter", async () => {
    const { searcher } = searcherWith(async () => [
      [row(1), 0.0],
      [row(3), 0.1],
      [row(2), 0.4],
    ]);
    const hits = await searcher.search("late fee", { ...OPTIONS, domain: "billing" });
    expect(hits.map((hit) => hit.id)).toEqual([2]);
  });

  it("keeps rows of every domain, and of none, when the lookup has no domain", async () => {
    const { searcher } = searcherWith(async () => [
      [row(1), 0.0],
      [row(3), 0.1],
      [row(2), 0.4],
    ]);
    expect((await searcher.search("anything", OPTIONS)).map((hit) => hit.id)).toEqual([1, 3, 2]);
  });

  it("drops hits below minScore and keeps one exactly at it", async () => {
    const { searcher } = searcherWith(async () => [
      [row(0), 0.25],
      [row(1), 0.5],
      [row(2), 0.75],
    ]);
    const hits = await searcher.search("anything", { ...OPTIONS, minScore: 0.5 });
    expect(hits.map((hit) => [hit.id, hit.score])).toEqual([
      [0, 0.75],
      [1, 0.5],
    ]);
  });

  it("returns one candidate per chunk when the store returns several rows of it, the first one's score", async () => {
    const { searcher } = searcherWith(async () => [
      [row(0), 0.2],
      [row(0), 0.1],
      [row(1), 0.3],
      [row(0), 0.2],
    ]);
    const hits = await searcher.search("anything", OPTIONS);
    expect(hits.map((hit) => [hit.id, hit.score])).toEqual([
      [0, 0.8],
      [1, 0.7],
    ]);
  });

  it("skips hits that are not [document, score] pairs and keeps the well-formed ones", async () => {
    const { searcher } = searcherWith(async () => [
      null,
      "row-deploy",
      [row(1)],
      [],
      { 0: row(1), 1: 0.1 },
      42,
      [row(0), 0.1],
    ]);
    expect((await searcher.search("anything", OPTIONS)).map((hit) => hit.id)).toEqual([0]);
  });

  it.each<[string, unknown]>([
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["-Infinity", Number.NEGATIVE_INFINITY],
    ["a numeric string", "0.1"],
    ["null", null],
    ["undefined", undefined],
  ])("skips a hit whose score is %s", async (_name, score) => {
    const { searcher } = searcherWith(async () => [
      [row(1), score],
      [row(0), 0.1],
    ]);
    expect((await searcher.search("anything", OPTIONS)).map((hit) => hit.id)).toEqual([0]);
  });

  it.each<[string, unknown]>([
    ["a null document", null],
    ["a string document", "Deploys freeze on Fridays."],
    ["a document without metadata", { pageContent: "Deploys freeze on Fridays." }],
    ["a document with null metadata", { pageContent: "x", metadata: null }],
    ["a document without lk_id", { pageContent: "x", metadata: { domain: "ops" } }],
    ["a numeric lk_id", { pageContent: "x", metadata: { lk_id: 1 } }],
    ["an lk_id of no current chunk (a stale row)", { pageContent: "x", metadata: { lk_id: "row-of-an-old-version" } }],
    ["the chunk number instead of the row id", { pageContent: "x", metadata: { lk_id: "1" } }],
  ])("skips %s", async (_name, doc) => {
    const { searcher } = searcherWith(async () => [
      [doc, 0.0],
      [row(0), 0.1],
    ]);
    expect((await searcher.search("anything", OPTIONS)).map((hit) => hit.id)).toEqual([0]);
  });

  it("finds the row id in metadata even when the store does not return its own id field", async () => {
    const { searcher } = searcherWith(async () => [[{ pageContent: "x", metadata: { lk_id: "row-invoices" } }, 0.3]]);
    expect((await searcher.search("anything", OPTIONS)).map((hit) => hit.id)).toEqual([2]);
  });

  it("skips a hit whose similarity the dialect cannot compute", async () => {
    const dialect: VectorStoreDialect = {
      name: "fake",
      filter: () => undefined,
      similarity: (score) => (score > 0.5 ? Number.NaN : 1 - score),
    };
    const { searcher } = searcherWith(
      async () => [
        [row(1), 0.9],
        [row(0), 0.1],
      ],
      { dialect },
    );
    expect((await searcher.search("anything", OPTIONS)).map((hit) => hit.id)).toEqual([0]);
  });

  it.each([
    ["7", -6],
    ["-3", 4],
    ["1.001", -0.001],
  ])(
    "skips a hit whose similarity is %s, outside the cosine's range, as garbage rather than a strong match",
    async (_name, distance) => {
      const { searcher } = searcherWith(async () => [
        [row(1), distance],
        [row(0), 0.1],
      ]);
      expect((await searcher.search("anything", { ...OPTIONS, minScore: -1 })).map((hit) => hit.id)).toEqual([0]);
    },
  );

  it("keeps hits at the ends of the cosine's range, and one a rounding error past 1", async () => {
    const { searcher } = searcherWith(async () => [
      [row(0), 0],
      [row(1), 2],
      [row(2), -1e-9],
    ]);
    const hits = await searcher.search("anything", { ...OPTIONS, minScore: -1 });
    expect(hits.map((hit) => hit.id).sort()).toEqual([0, 1, 2]);
    expect(hits.find((hit) => hit.id === 1)!.score).toBe(-1);
  });

  it("returns no candidates for an empty answer", async () => {
    const { searcher } = searcherWith(async () => []);
    expect(await searcher.search("anything", OPTIONS)).toEqual([]);
  });

  it.each<[string, unknown, string]>([
    ["null", null, "null"],
    ["a string", "[]", "string"],
    ["an object", { rows: [] }, "object"],
    ["undefined", undefined, "undefined"],
  ])("fails with VECTOR_STORE_FAILED when the store answers %s instead of a list", async (_name, answer, kind) => {
    const { searcher } = searcherWith(async () => answer);
    const error = await rejection(searcher.search("anything", OPTIONS));
    expect(error).toBeInstanceOf(LookupKnowledgeError);
    expect(error).toMatchObject({
      code: "VECTOR_STORE_FAILED",
      message: `lookup-knowledge: the fake vector store answered garbage: the store returned ${kind} instead of a list of [document, score] pairs`,
    });
  });

  it("fails with VECTOR_STORE_FAILED, quoting the store's message and keeping its error as the cause", async () => {
    const cause = new Error("connection terminated unexpectedly");
    const { searcher } = searcherWith(async () => Promise.reject(cause));
    const error = await rejection(searcher.search("anything", OPTIONS));
    expect(error).toMatchObject({
      code: "VECTOR_STORE_FAILED",
      message: "lookup-knowledge: the fake vector store failed: connection terminated unexpectedly",
      cause,
    });
  });

  it("fails with VECTOR_STORE_FAILED when the store throws synchronously, or throws a non-Error", async () => {
    const sync = searcherWith(() => {
      throw new TypeError("client.query is not a function");
    });
    expect(await rejection(sync.searcher.search("anything", OPTIONS))).toMatchObject({
      code: "VECTOR_STORE_FAILED",
      message: expect.stringContaining("failed: client.query is not a function"),
    });
    const text = searcherWith(async () => Promise.reject("ECONNRESET"));
    expect(await rejection(text.searcher.search("anything", OPTIONS))).toMatchObject({
      code: "VECTOR_STORE_FAILED",
      message: expect.stringContaining("failed: ECONNRESET"),
    });
  });

  it("fails with VECTOR_STORE_TIMEOUT naming timeoutMs when the store never answers", async () => {
    const { searcher, store } = searcherWith(() => new Promise(() => {}));
    const error = await rejection(searcher.search("anything", { ...OPTIONS, timeoutMs: 25 }));
    expect(error).toMatchObject({
      code: "VECTOR_STORE_TIMEOUT",
      message: expect.stringContaining("the fake vector store did not answer within 25 ms"),
    });
    expect(store.calls).toHaveLength(1);
  });

  it("waits for a slow store when timeoutMs is 0 (no deadline)", async () => {
    const { searcher } = searcherWith(() => new Promise((resolve) => setTimeout(() => resolve([[row(0), 0.1]]), 20)));
    expect((await searcher.search("anything", { ...OPTIONS, timeoutMs: 0 })).map((hit) => hit.id)).toEqual([0]);
  });

  it("throws the caller's abort reason when the signal aborts while the store is searching", async () => {
    const controller = new AbortController();
    const reason = new Error("agent run cancelled");
    const { searcher } = searcherWith(() => {
      queueMicrotask(() => controller.abort(reason));
      return new Promise(() => {});
    });
    expect(
      await rejection(searcher.search("anything", { ...OPTIONS, timeoutMs: 10_000, signal: controller.signal })),
    ).toBe(reason);
  });

  it("throws the abort reason, even when the store then rejects, rather than a store error", async () => {
    const controller = new AbortController();
    const reason = new Error("agent run cancelled");
    const { searcher } = searcherWith(async () => {
      controller.abort(reason);
      throw new Error("query cancelled by the client");
    });
    expect(await rejection(searcher.search("anything", { ...OPTIONS, signal: controller.signal }))).toBe(reason);
  });

  it("never asks the store when the signal has aborted already", async () => {
    const controller = new AbortController();
    const reason = new Error("cancelled before the lookup");
    controller.abort(reason);
    const { searcher, store } = searcherWith(async () => [[row(0), 0.1]]);
    expect(await rejection(searcher.search("anything", { ...OPTIONS, signal: controller.signal }))).toBe(reason);
    expect(store.calls).toEqual([]);
  });

  it.each([
    ["throw", "EMBEDDINGS_FAILED"],
    ["hang", "EMBEDDINGS_TIMEOUT"],
    ["wrong-length", "EMBEDDINGS_INVALID"],
  ] as const)(
    "keeps the embedding's own code when the query embedding fails (%s → %s), never asking the store",
    async (mode, code) => {
      const { searcher, store } = searcherWith(async () => [[row(0), 0.1]], {
        embeddings: new ScriptedEmbeddings(mode),
      });
      expect(await rejection(searcher.search("anything", { ...OPTIONS, timeoutMs: 25 }))).toMatchObject({ code });
      expect(store.calls).toEqual([]);
    },
  );

  it("records the lexical coverage of the query's terms for each candidate when given", async () => {
    const asked: [readonly string[], number][] = [];
    const coverage = (terms: readonly string[], id: number) => {
      asked.push([terms, id]);
      return id === 0 ? 1 : 0.25;
    };
    const { searcher } = searcherWith(
      async () => [
        [row(2), 0.4],
        [row(0), 0.1],
      ],
      { coverage },
    );
    const hits = await searcher.search("Refunds within thirty days", OPTIONS);
    expect(hits.map((hit) => [hit.id, hit.coverage])).toEqual([
      [0, 1],
      [2, 0.25],
    ]);
    expect(asked.map(([, id]) => id).sort()).toEqual([0, 2]);
    for (const [terms] of asked) expect(terms).toEqual(tokenize("Refunds within thirty days"));
  });
});
