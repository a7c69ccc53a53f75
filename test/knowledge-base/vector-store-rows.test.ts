import type { DocumentInterface } from "@langchain/core/documents";
import { Embeddings } from "@langchain/core/embeddings";
import { VectorStore, type VectorStoreInterface } from "@langchain/core/vectorstores";
import { describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import type { EmbedderInfo } from "../../src/knowledge-base/manifest.js";
import { checkVectorStoreOption, chunkOfRowMap, rowIdOf, syncRows, type RowChanges } from "../../src/knowledge-base/vector-store-rows.js";
import type { VectorStoreDialect } from "../../src/l1/vector-store/vector-store-dialect.js";
import { makeChunk } from "../helpers/retrieval-fakes.js";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/;
const LSA: EmbedderInfo = { kind: "statistical-lsa", dimensions: 64 };

class UnusedEmbeddings extends Embeddings {
  constructor() {
    super({});
  }
  async embedDocuments(): Promise<number[][]> {
    throw new Error("a sync never embeds");
  }
  async embedQuery(): Promise<number[]> {
    throw new Error("a sync never embeds");
  }
}

type StoreCall = { op: "add"; vectors: number[][]; docs: DocumentInterface[]; ids: string[] | undefined } | { op: "delete"; params: unknown };
type Fault = { on: "add" | "delete"; after?: number; mode: "throw" | "hang" };

/** A vector store that records every write and can be made to fail or hang on the n-th call of one kind. */
class RecordingVectorStore extends VectorStore {
  readonly calls: StoreCall[] = [];
  #seen = { add: 0, delete: 0 };
  constructor(private readonly fault?: Fault) {
    super(new UnusedEmbeddings(), {});
  }
  _vectorstoreType(): string {
    return "recording";
  }
  async #maybeFail(op: "add" | "delete"): Promise<void> {
    const n = this.#seen[op]++;
    if (this.fault?.on !== op || n < (this.fault.after ?? 0)) return;
    if (this.fault.mode === "hang") await new Promise<never>(() => {});
    throw new Error(`${op} refused by the database`);
  }
  async addVectors(vectors: number[][], docs: DocumentInterface[], options?: { ids?: string[] }): Promise<void> {
    await this.#maybeFail("add");
    this.calls.push({ op: "add", vectors, docs, ids: options?.ids });
  }
  async addDocuments(): Promise<void> {
    throw new Error("a sync writes vectors, never documents");
  }
  override async delete(params: unknown): Promise<void> {
    await this.#maybeFail("delete");
    this.calls.push({ op: "delete", params });
  }
  async similaritySearchVectorWithScore(): Promise<[DocumentInterface, number][]> {
    return [];
  }
}

/** A dialect that leaves deletes to the store's own `delete`. */
const PLAIN: VectorStoreDialect = { name: "fake", domainFilter: (domain) => ({ domain }), similarity: (score) => score };

const CHUNKS = [
  makeChunk("billing/refunds.md#window", { content: "Refunds within 30 days.", meta: { domain: "billing", title: "Refunds" } }),
  makeChunk("ops/deploy.md#freeze", { content: "No deploys on Fridays.", meta: { domain: "ops", title: "Deploys" } }),
  makeChunk("readme.md#top", { content: "Start here." }),
  makeChunk("billing/invoices.md#late", { content: "Late fees apply.", meta: { domain: "billing" } }),
  makeChunk("ops/oncall.md#pager", { content: "Page the on-call.", meta: { domain: "ops", title: "On call" } }),
];
const D = 2;

/** Vectors row-major for `chunkIds`, row i = [chunkIds[i], 0.5] (exact in float32). */
function vectorsFor(chunkIds: readonly number[]): Float32Array {
  return Float32Array.from(chunkIds.flatMap((id) => [id, 0.5]));
}

function changes(chunkIds: number[], extra: Partial<RowChanges> = {}): RowChanges {
  return { clear: false, remove: [], add: { chunkIds, vectors: vectorsFor(chunkIds), dimensions: D }, ...extra };
}

const idOf = (chunk: number) => rowIdOf(CHUNKS[chunk], LSA);
const LIMITS = { batchSize: 2, timeoutMs: 0 };

/** The calls as a short script: `clear`, `delete <chunk numbers or ids>`, `add <chunk numbers>`. */
function script(store: RecordingVectorStore): string[] {
  const chunkOf = new Map(CHUNKS.map((_, i) => [idOf(i), i]));
  const name = (id: string) => String(chunkOf.get(id) ?? id);
  return store.calls.map((call) => {
    if (call.op === "add") return `add ${call.docs.map((doc) => name(String(doc.id))).join(",")}`;
    const params = call.params as { ids?: string[]; filter?: unknown };
    return params.ids ? `delete ${params.ids.map(name).join(",")}` : `clear ${JSON.stringify(params.filter)}`;
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("the sync resolved"),
    (error: unknown) => error,
  );
}

describe("rowIdOf", () => {
  it("is shaped like a version-4 UUID (8-4-4-4-12 hex, version nibble 4, variant 8), as pgvector's uuid column needs", () => {
    for (const chunk of CHUNKS) expect(rowIdOf(chunk, LSA)).toMatch(UUID_V4);
  });

  it("is the same for the same chunk, and for an equal chunk object built again", () => {
    const again = makeChunk("billing/refunds.md#window", { content: "Refunds within 30 days.", meta: { domain: "billing", title: "Refunds" } });
    expect(rowIdOf(CHUNKS[0], LSA)).toBe(rowIdOf(CHUNKS[0], LSA));
    expect(rowIdOf(again, LSA)).toBe(rowIdOf(CHUNKS[0], LSA));
  });

  it("differs between the chunks of a knowledge base", () => {
    expect(new Set(CHUNKS.map((chunk) => rowIdOf(chunk, LSA))).size).toBe(CHUNKS.length);
  });

  it.each([
    ["content", makeChunk("billing/refunds.md#window", { content: "Refunds within 60 days.", meta: { domain: "billing", title: "Refunds" } })],
    ["source", makeChunk("billing/refunds-v2.md#window", { content: "Refunds within 30 days.", meta: { domain: "billing", title: "Refunds" } })],
    ["domain", makeChunk("billing/refunds.md#window", { content: "Refunds within 30 days.", meta: { domain: "finance", title: "Refunds" } })],
    ["domain, removed", makeChunk("billing/refunds.md#window", { content: "Refunds within 30 days.", meta: { title: "Refunds" } })],
  ])("changes when the chunk's %s changes", (_field, changed) => {
    expect(rowIdOf(changed, LSA)).not.toBe(rowIdOf(CHUNKS[0], LSA));
    expect(rowIdOf(changed, LSA)).toMatch(UUID_V4);
  });

  it.each<[string, EmbedderInfo]>([
    ["kind", { kind: "custom", dimensions: 64 }],
    ["name", { kind: "custom", name: "OpenAIEmbeddings", dimensions: 64 }],
    ["dimensions", { kind: "statistical-lsa", dimensions: 128 }],
  ])("changes when the embedder's %s changes, since the row's vector is another model's", (_field, embedder) => {
    expect(rowIdOf(CHUNKS[0], embedder)).not.toBe(rowIdOf(CHUNKS[0], LSA));
  });

  it("tells two custom embedders of the same dimensions apart by their names", () => {
    expect(rowIdOf(CHUNKS[0], { kind: "custom", name: "A", dimensions: 64 })).not.toBe(rowIdOf(CHUNKS[0], { kind: "custom", name: "B", dimensions: 64 }));
  });
});

describe("chunkOfRowMap", () => {
  it("maps each chunk's row id to its chunk number", () => {
    const map = chunkOfRowMap(CHUNKS, LSA);
    expect(map.size).toBe(CHUNKS.length);
    CHUNKS.forEach((chunk, i) => expect(map.get(rowIdOf(chunk, LSA))).toBe(i));
  });

  it("knows no row written with another embedder", () => {
    const map = chunkOfRowMap(CHUNKS, LSA);
    expect(map.has(rowIdOf(CHUNKS[0], { kind: "custom", name: "Other", dimensions: 64 }))).toBe(false);
  });

  it("is empty for no chunks", () => {
    expect(chunkOfRowMap([], LSA).size).toBe(0);
  });
});

describe("syncRows", () => {
  it("clears this package's rows first on a full build, then adds the rows in batches of batchSize", async () => {
    const store = new RecordingVectorStore();
    await syncRows(store, PLAIN, CHUNKS, LSA, changes([0, 1, 2, 3, 4], { clear: true }), LIMITS);
    expect(script(store)).toEqual(['clear {"lk_kind":"chunk"}', "add 0,1", "add 2,3", "add 4"]);
  });

  it("writes each row's vector, row id (as document id and in ids), content and metadata", async () => {
    const store = new RecordingVectorStore();
    await syncRows(store, PLAIN, CHUNKS, LSA, changes([0, 1, 2], { clear: true }), { batchSize: 10, timeoutMs: 0 });
    const [, add] = store.calls;
    expect(add).toEqual({
      op: "add",
      vectors: [
        [0, 0.5],
        [1, 0.5],
        [2, 0.5],
      ],
      ids: [idOf(0), idOf(1), idOf(2)],
      docs: [
        { pageContent: "Refunds within 30 days.", id: idOf(0), metadata: { lk_kind: "chunk", lk_id: idOf(0), source: "billing/refunds.md#window", title: "Refunds", domain: "billing" } },
        { pageContent: "No deploys on Fridays.", id: idOf(1), metadata: { lk_kind: "chunk", lk_id: idOf(1), source: "ops/deploy.md#freeze", title: "Deploys", domain: "ops" } },
        { pageContent: "Start here.", id: idOf(2), metadata: { lk_kind: "chunk", lk_id: idOf(2), source: "readme.md#top", title: null, domain: null } },
      ],
    });
  });

  it("takes row i of the vectors for chunkIds[i], whatever the order of the chunk numbers", async () => {
    const store = new RecordingVectorStore();
    await syncRows(store, PLAIN, CHUNKS, LSA, changes([4, 1, 3]), { batchSize: 2, timeoutMs: 0 });
    const adds = store.calls.filter((call) => call.op === "add");
    expect(adds.flatMap((call) => call.vectors)).toEqual([
      [4, 0.5],
      [1, 0.5],
      [3, 0.5],
    ]);
    expect(adds.flatMap((call) => call.docs.map((doc) => doc.metadata.source))).toEqual([CHUNKS[4].source, CHUNKS[1].source, CHUNKS[3].source]);
  });

  it("deletes the rows of a batch's ids before adding them when it is not a full build (a killed sync may have left them)", async () => {
    const store = new RecordingVectorStore();
    await syncRows(store, PLAIN, CHUNKS, LSA, changes([1, 3, 4]), LIMITS);
    expect(script(store)).toEqual(["delete 1,3", "add 1,3", "delete 4", "add 4"]);
  });

  it("deletes the removed rows last, in batches of batchSize", async () => {
    const store = new RecordingVectorStore();
    await syncRows(store, PLAIN, CHUNKS, LSA, changes([2], { remove: ["old-1", "old-2", "old-3", "old-4", "old-5"] }), LIMITS);
    expect(script(store)).toEqual(["delete 2", "add 2", "delete old-1,old-2", "delete old-3,old-4", "delete old-5"]);
  });

  it("touches nothing for an update with no changes, and only clears for a full build of no rows", async () => {
    const idle = new RecordingVectorStore();
    await syncRows(idle, PLAIN, CHUNKS, LSA, changes([]), LIMITS);
    expect(idle.calls).toEqual([]);
    const empty = new RecordingVectorStore();
    await syncRows(empty, PLAIN, CHUNKS, LSA, changes([], { clear: true }), LIMITS);
    expect(script(empty)).toEqual(['clear {"lk_kind":"chunk"}']);
  });

  it("deletes and clears through the dialect when it says how", async () => {
    const used: string[] = [];
    const dialect: VectorStoreDialect = {
      ...PLAIN,
      deleteIds: async (_store, ids) => void used.push(`deleteIds ${ids.length}`),
      clear: async () => void used.push("clear"),
    };
    const store = new RecordingVectorStore();
    await syncRows(store, dialect, CHUNKS, LSA, changes([0, 1], { clear: true }), LIMITS);
    await syncRows(store, dialect, CHUNKS, LSA, changes([2], { remove: ["gone"] }), LIMITS);
    expect(used).toEqual(["clear", "deleteIds 1", "deleteIds 1"]);
    expect(script(store)).toEqual(["add 0,1", "add 2"]);
  });

  it("reports progress after each batch as rows written of rows to write", async () => {
    const progress: [number, number][] = [];
    await syncRows(new RecordingVectorStore(), PLAIN, CHUNKS, LSA, changes([0, 1, 2, 3, 4], { clear: true }), LIMITS, (done, total) => progress.push([done, total]));
    expect(progress).toEqual([
      [2, 5],
      [4, 5],
      [5, 5],
    ]);
  });

  it.each<[string, Fault, RowChanges, string]>([
    ["clearing", { on: "delete", mode: "throw" }, changes([0], { clear: true }), "could not delete its old rows: delete refused by the database"],
    ["adding the second batch", { on: "add", after: 1, mode: "throw" }, changes([0, 1, 2], { clear: true }), "could not add rows 3-3: add refused by the database"],
    ["replacing a batch", { on: "delete", mode: "throw" }, changes([0, 1]), "could not replace rows 1-2: delete refused by the database"],
    ["deleting removed rows", { on: "delete", after: 1, mode: "throw" }, changes([0], { remove: ["a", "b", "c"] }), "could not delete 2 old rows: delete refused by the database"],
  ])("fails with VECTOR_STORE_FAILED naming the step when the store throws while %s", async (_step, fault, change, message) => {
    const error = await rejection(syncRows(new RecordingVectorStore(fault), PLAIN, CHUNKS, LSA, change, LIMITS));
    expect(error).toBeInstanceOf(LookupKnowledgeError);
    expect(error).toMatchObject({ code: "VECTOR_STORE_FAILED", message: `lookup-knowledge: the fake vector store ${message}` });
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it("stops at the failed step, writing nothing after it", async () => {
    const store = new RecordingVectorStore({ on: "add", after: 1, mode: "throw" });
    await rejection(syncRows(store, PLAIN, CHUNKS, LSA, changes([0, 1, 2, 3, 4], { remove: ["gone"] }), LIMITS));
    expect(script(store)).toEqual(["delete 0,1", "add 0,1", "delete 2,3"]);
  });

  it.each<[string, Fault, RowChanges, string]>([
    ["clearing", { on: "delete", mode: "hang" }, changes([0], { clear: true }), "did not delete its old rows within 20 ms"],
    ["adding", { on: "add", mode: "hang" }, changes([0, 1], { clear: true }), "did not add rows 1-2 within 20 ms"],
    ["replacing", { on: "delete", mode: "hang" }, changes([3]), "did not replace rows 1-1 within 20 ms"],
    ["deleting removed rows", { on: "delete", after: 1, mode: "hang" }, changes([0], { remove: ["a"] }), "did not delete 1 old rows within 20 ms"],
  ])("fails with VECTOR_STORE_TIMEOUT naming the step when the store hangs while %s", async (_step, fault, change, message) => {
    const error = await rejection(syncRows(new RecordingVectorStore(fault), PLAIN, CHUNKS, LSA, change, { batchSize: 2, timeoutMs: 20 }));
    expect(error).toMatchObject({ code: "VECTOR_STORE_TIMEOUT", message: expect.stringContaining(`the fake vector store ${message}`) });
  });
});

describe("checkVectorStoreOption", () => {
  const store = () => ({ addVectors: async () => {}, similaritySearchVectorWithScore: async () => [] }) as unknown as VectorStoreInterface;
  const FIX = "pass { store, dialect }";

  it.each<[string, unknown]>([
    ["null", null],
    ["undefined", undefined],
    ["a store given without its dialect wrapper", "postgresql://localhost/db"],
    ["a number", 3],
  ])("refuses %s as the option, saying to pass { store, dialect }", (_name, option) => {
    expect(() => checkVectorStoreOption(option, undefined)).toThrow(expect.objectContaining({ code: "INVALID_OPTION", message: expect.stringMatching(/option vectorStore must be an object; pass \{ store, dialect \}/) }));
  });

  it.each<[string, unknown]>([
    ["no store", { dialect: PLAIN }],
    ["a store without similaritySearchVectorWithScore", { store: { addVectors: async () => {} }, dialect: PLAIN }],
    ["a store without addVectors", { store: { similaritySearchVectorWithScore: async () => [] }, dialect: PLAIN }],
    ["a retriever instead of a store", { store: { invoke: async () => [] }, dialect: PLAIN }],
  ])("refuses an option with %s, naming the methods a store needs", (_name, option) => {
    expect(() => checkVectorStoreOption(option, undefined)).toThrow(
      expect.objectContaining({ code: "INVALID_OPTION", message: expect.stringContaining(`option vectorStore.store must be a LangChain vector store (with addVectors and similaritySearchVectorWithScore); ${FIX}`) }),
    );
  });

  it.each<[string, unknown]>([
    ["no dialect", undefined],
    ["a dialect name instead of a dialect", "pgvector"],
    ["a dialect without a name", { domainFilter: () => ({}), similarity: (score: number) => score }],
    ["a dialect without domainFilter", { name: "x", similarity: (score: number) => score }],
    ["a dialect without similarity", { name: "x", domainFilter: () => ({}) }],
  ])("refuses an option with %s, naming the dialect's fields", (_name, dialect) => {
    expect(() => checkVectorStoreOption({ store: store(), dialect }, undefined)).toThrow(
      expect.objectContaining({ code: "INVALID_OPTION", message: expect.stringContaining(`option vectorStore.dialect must have a name, domainFilter and similarity; ${FIX}`) }),
    );
  });

  it("refuses embeddings: null with a store, since the store holds L1 vectors", () => {
    expect(() => checkVectorStoreOption({ store: store(), dialect: PLAIN }, null)).toThrow(
      expect.objectContaining({ code: "INVALID_OPTION", message: expect.stringContaining("option vectorStore needs embeddings for L1; leave embeddings out (the default embedder) or pass yours, not null.") }),
    );
  });

  it("returns the option as given, with the default or custom embeddings", () => {
    const option = { store: store(), dialect: PLAIN };
    expect(checkVectorStoreOption(option, undefined)).toBe(option);
    expect(checkVectorStoreOption(option, new UnusedEmbeddings())).toBe(option);
  });

  it("calls the dialect's attach with the store once it is valid, and not when it is refused", () => {
    const attached: unknown[] = [];
    const dialect: VectorStoreDialect = { ...PLAIN, attach: (given) => void attached.push(given) };
    const given = store();
    checkVectorStoreOption({ store: given, dialect }, undefined);
    expect(attached).toEqual([given]);
    expect(() => checkVectorStoreOption({ store: given, dialect }, null)).toThrow(LookupKnowledgeError);
    expect(() => checkVectorStoreOption({ store: {}, dialect }, undefined)).toThrow(LookupKnowledgeError);
    expect(attached).toHaveLength(1);
  });
});
