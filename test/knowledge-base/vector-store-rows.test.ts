import type { DocumentInterface } from "@langchain/core/documents";
import { Embeddings } from "@langchain/core/embeddings";
import { VectorStore, type VectorStoreInterface } from "@langchain/core/vectorstores";
import { describe, expect, it, vi } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import type { EmbedderInfo } from "../../src/knowledge-base/manifest.js";
import {
  checkVectorStoreOption,
  DEFAULT_NAMESPACE,
  MAX_TARGET_FIELDS,
  MAX_TARGET_STRING,
  targetOf,
  targetProblem,
} from "../../src/knowledge-base/vector-store-option.js";
import {
  chunkOfRowMap,
  newGeneration,
  pruneRows,
  rowIdOf,
  storeCall,
  writeRows,
  type RowAdditions,
  type RowSet,
} from "../../src/knowledge-base/vector-store-rows.js";
import type { RowScope, VectorStoreDialect } from "../../src/l1/vector-store/vector-store-dialect.js";
import { makeChunk } from "../helpers/retrieval-fakes.js";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/;
const LSA: EmbedderInfo = { kind: "statistical-lsa", dimensions: 64 };
const ROWS: RowSet = { namespace: "handbook", generation: "0123456789abcdef" };

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

type StoreCall =
  | { op: "add"; vectors: number[][]; docs: DocumentInterface[]; ids: string[] | undefined }
  | { op: "delete"; params: unknown };
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

/** A dialect that leaves deletes to the store's own `delete` and has no deleteOtherGenerations. */
const PLAIN: VectorStoreDialect = { name: "fake", filter: (scope) => scope, similarity: (score) => score };

/** PLAIN, plus a deleteOtherGenerations that records its scope in the store's call list (or fails as asked). */
function pruningDialect(
  store: RecordingVectorStore,
  fails: "no" | "throw" | "hang" = "no",
): VectorStoreDialect & { scopes: unknown[] } {
  const scopes: unknown[] = [];
  return {
    ...PLAIN,
    scopes,
    async deleteOtherGenerations(given, scope) {
      expect(given).toBe(store);
      if (fails === "hang") await new Promise<never>(() => {});
      if (fails === "throw") throw new Error("permission denied for table lk_rows");
      scopes.push(scope);
      store.calls.push({ op: "delete", params: { otherGenerations: scope } });
    },
  };
}

const CHUNKS = [
  makeChunk("billing/refunds.md#window", {
    content: "Refunds within 30 days.",
    meta: { domain: "billing", title: "Refunds" },
  }),
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

function additions(chunkIds: number[], fresh: boolean): RowAdditions {
  return { chunkIds, vectors: vectorsFor(chunkIds), dimensions: D, fresh };
}

const idOf = (chunk: number) => rowIdOf(CHUNKS[chunk], LSA, ROWS);
const LIMITS = { batchSize: 2, timeoutMs: 0 };

/** The calls as a short script: `add <chunk numbers>`, `delete <chunk numbers or ids>`, `prune <scope>`. */
function script(store: RecordingVectorStore): string[] {
  const chunkOf = new Map(CHUNKS.map((_, i) => [idOf(i), i]));
  const name = (id: string) => String(chunkOf.get(id) ?? id);
  return store.calls.map((call) => {
    if (call.op === "add") return `add ${call.docs.map((doc) => name(String(doc.id))).join(",")}`;
    const params = call.params as { ids?: string[]; otherGenerations?: unknown };
    return params.ids
      ? `delete ${params.ids.map(name).join(",")}`
      : `prune ${JSON.stringify(params.otherGenerations ?? params)}`;
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("the call resolved"),
    (error: unknown) => error,
  );
}

describe("rowIdOf", () => {
  it("is shaped like a version-4 UUID (8-4-4-4-12 hex, version nibble 4, variant 8), as pgvector's uuid column needs", () => {
    for (const chunk of CHUNKS) expect(rowIdOf(chunk, LSA, ROWS)).toMatch(UUID_V4);
  });

  it("is the same for the same chunk, and for an equal chunk object built again", () => {
    const again = makeChunk("billing/refunds.md#window", {
      content: "Refunds within 30 days.",
      meta: { domain: "billing", title: "Refunds" },
    });
    expect(rowIdOf(CHUNKS[0], LSA, ROWS)).toBe(rowIdOf(CHUNKS[0], LSA, ROWS));
    expect(rowIdOf(again, LSA, { ...ROWS })).toBe(rowIdOf(CHUNKS[0], LSA, ROWS));
  });

  it("differs between the chunks of a knowledge base", () => {
    expect(new Set(CHUNKS.map((chunk) => rowIdOf(chunk, LSA, ROWS))).size).toBe(CHUNKS.length);
  });

  const base = { content: "Refunds within 30 days.", meta: { domain: "billing", title: "Refunds" } };
  it.each([
    ["content", makeChunk("billing/refunds.md#window", { ...base, content: "Refunds within 60 days." })],
    ["source", makeChunk("billing/refunds-v2.md#window", base)],
    ["domain", makeChunk("billing/refunds.md#window", { ...base, meta: { domain: "finance", title: "Refunds" } })],
    ["domain, removed", makeChunk("billing/refunds.md#window", { ...base, meta: { title: "Refunds" } })],
    ["breadcrumb", makeChunk("billing/refunds.md#window", { ...base, breadcrumb: ["Billing", "Refunds"] })],
    ["title", makeChunk("billing/refunds.md#window", { ...base, meta: { domain: "billing", title: "Refund policy" } })],
    ["keywords", makeChunk("billing/refunds.md#window", { ...base, meta: { ...base.meta, keywords: ["money back"] } })],
    ["aliases", makeChunk("billing/refunds.md#window", { ...base, meta: { ...base.meta, aliases: ["returns"] } })],
    ["entities", makeChunk("billing/refunds.md#window", { ...base, meta: { ...base.meta, entities: ["Stripe"] } })],
  ])("changes when the chunk's %s changes, since the row's vector or metadata come from it", (_field, changed) => {
    expect(rowIdOf(changed, LSA, ROWS)).not.toBe(rowIdOf(CHUNKS[0], LSA, ROWS));
    expect(rowIdOf(changed, LSA, ROWS)).toMatch(UUID_V4);
  });

  it.each<[string, EmbedderInfo]>([
    ["kind", { kind: "custom", dimensions: 64 }],
    ["name", { kind: "custom", name: "OpenAIEmbeddings", dimensions: 64 }],
    ["dimensions", { kind: "statistical-lsa", dimensions: 128 }],
  ])("changes when the embedder's %s changes, since the row's vector is another model's", (_field, embedder) => {
    expect(rowIdOf(CHUNKS[0], embedder, ROWS)).not.toBe(rowIdOf(CHUNKS[0], LSA, ROWS));
  });

  it("tells two custom embedders of the same dimensions apart by their names", () => {
    expect(rowIdOf(CHUNKS[0], { kind: "custom", name: "A", dimensions: 64 }, ROWS)).not.toBe(
      rowIdOf(CHUNKS[0], { kind: "custom", name: "B", dimensions: 64 }, ROWS),
    );
  });

  it("differs between two knowledge bases sharing a table, and between two generations of one", () => {
    const own = rowIdOf(CHUNKS[0], LSA, ROWS);
    expect(rowIdOf(CHUNKS[0], LSA, { ...ROWS, namespace: "runbooks" })).not.toBe(own);
    expect(rowIdOf(CHUNKS[0], LSA, { ...ROWS, generation: "fedcba9876543210" })).not.toBe(own);
  });

  it("keeps namespace and generation apart, so moving characters from one to the other gives another id", () => {
    expect(rowIdOf(CHUNKS[0], LSA, { namespace: "ab", generation: "c" })).not.toBe(
      rowIdOf(CHUNKS[0], LSA, { namespace: "a", generation: "bc" }),
    );
  });
});

describe("chunkOfRowMap", () => {
  it("maps each chunk's row id in the row set to its chunk number", () => {
    const map = chunkOfRowMap(CHUNKS, LSA, ROWS);
    expect(map.size).toBe(CHUNKS.length);
    CHUNKS.forEach((chunk, i) => expect(map.get(rowIdOf(chunk, LSA, ROWS))).toBe(i));
  });

  it("knows no row written with another embedder, in another namespace or of another generation", () => {
    const map = chunkOfRowMap(CHUNKS, LSA, ROWS);
    expect(map.has(rowIdOf(CHUNKS[0], { kind: "custom", name: "Other", dimensions: 64 }, ROWS))).toBe(false);
    expect(map.has(rowIdOf(CHUNKS[0], LSA, { ...ROWS, namespace: "runbooks" }))).toBe(false);
    expect(map.has(rowIdOf(CHUNKS[0], LSA, { ...ROWS, generation: "fedcba9876543210" }))).toBe(false);
  });

  it("is empty for no chunks", () => {
    expect(chunkOfRowMap([], LSA, ROWS).size).toBe(0);
  });
});

describe("newGeneration", () => {
  it("is 16 lowercase hex digits, as the manifest check wants", () => {
    for (let i = 0; i < 20; i++) expect(newGeneration()).toMatch(/^[0-9a-f]{16}$/);
  });

  it("is a new one on every call", () => {
    expect(new Set(Array.from({ length: 200 }, () => newGeneration())).size).toBe(200);
  });
});

describe("writeRows", () => {
  it("adds a fresh generation's rows in batches of batchSize, deleting nothing", async () => {
    const store = new RecordingVectorStore();
    await writeRows(store, PLAIN, CHUNKS, LSA, ROWS, additions([0, 1, 2, 3, 4], true), LIMITS);
    expect(script(store)).toEqual(["add 0,1", "add 2,3", "add 4"]);
  });

  it("deletes the rows of a batch's ids before adding them when the generation is not fresh (a killed sync may have left them)", async () => {
    const store = new RecordingVectorStore();
    await writeRows(store, PLAIN, CHUNKS, LSA, ROWS, additions([1, 3, 4], false), LIMITS);
    expect(script(store)).toEqual(["delete 1,3", "add 1,3", "delete 4", "add 4"]);
  });

  it("writes each row's vector, row id (as document id and in ids), content, and metadata with its namespace and generation", async () => {
    const store = new RecordingVectorStore();
    await writeRows(store, PLAIN, CHUNKS, LSA, ROWS, additions([0, 1, 2], true), { batchSize: 10, timeoutMs: 0 });
    const rowMeta = (chunk: number, source: string, title: string | null, domain: string | null) => ({
      lk_kind: "chunk",
      lk_kb: "handbook",
      lk_gen: "0123456789abcdef",
      lk_id: idOf(chunk),
      lk_acl: "open",
      source,
      title,
      domain,
    });
    expect(store.calls).toEqual([
      {
        op: "add",
        vectors: [
          [0, 0.5],
          [1, 0.5],
          [2, 0.5],
        ],
        ids: [idOf(0), idOf(1), idOf(2)],
        docs: [
          {
            pageContent: "Refunds within 30 days.",
            id: idOf(0),
            metadata: rowMeta(0, "billing/refunds.md#window", "Refunds", "billing"),
          },
          {
            pageContent: "No deploys on Fridays.",
            id: idOf(1),
            metadata: rowMeta(1, "ops/deploy.md#freeze", "Deploys", "ops"),
          },
          { pageContent: "Start here.", id: idOf(2), metadata: rowMeta(2, "readme.md#top", null, null) },
        ],
      },
    ]);
  });

  it("gives the rows of another row set other ids, so two knowledge bases in one table never overwrite each other", async () => {
    const store = new RecordingVectorStore();
    const other = { namespace: "runbooks", generation: ROWS.generation };
    await writeRows(store, PLAIN, CHUNKS, LSA, other, additions([0], true), LIMITS);
    const [add] = store.calls as Extract<StoreCall, { op: "add" }>[];
    expect(add.ids).toEqual([rowIdOf(CHUNKS[0], LSA, other)]);
    expect(add.ids).not.toContain(idOf(0));
    expect(add.docs[0].metadata).toMatchObject({ lk_kb: "runbooks", lk_gen: ROWS.generation });
  });

  it("takes row i of the vectors for chunkIds[i], whatever the order of the chunk numbers", async () => {
    const store = new RecordingVectorStore();
    await writeRows(store, PLAIN, CHUNKS, LSA, ROWS, additions([4, 1, 3], false), LIMITS);
    const adds = store.calls.filter((call) => call.op === "add");
    expect(adds.flatMap((call) => call.vectors)).toEqual([
      [4, 0.5],
      [1, 0.5],
      [3, 0.5],
    ]);
    expect(adds.flatMap((call) => call.docs.map((doc) => doc.metadata.source))).toEqual([
      CHUNKS[4].source,
      CHUNKS[1].source,
      CHUNKS[3].source,
    ]);
  });

  it("touches nothing for no rows, fresh or not", async () => {
    for (const fresh of [true, false]) {
      const store = new RecordingVectorStore();
      await writeRows(store, PLAIN, CHUNKS, LSA, ROWS, additions([], fresh), LIMITS);
      expect(store.calls).toEqual([]);
    }
  });

  it("replaces rows through the dialect's deleteIds when it has one", async () => {
    const used: string[][] = [];
    const dialect: VectorStoreDialect = { ...PLAIN, deleteIds: async (_store, ids) => void used.push(ids) };
    const store = new RecordingVectorStore();
    await writeRows(store, dialect, CHUNKS, LSA, ROWS, additions([0, 1, 2], false), LIMITS);
    expect(used).toEqual([[idOf(0), idOf(1)], [idOf(2)]]);
    expect(script(store)).toEqual(["add 0,1", "add 2"]);
  });

  it("reports progress after each batch as rows written of rows to write", async () => {
    const progress: [number, number][] = [];
    await writeRows(
      new RecordingVectorStore(),
      PLAIN,
      CHUNKS,
      LSA,
      ROWS,
      additions([0, 1, 2, 3, 4], true),
      LIMITS,
      (done, total) => progress.push([done, total]),
    );
    expect(progress).toEqual([
      [2, 5],
      [4, 5],
      [5, 5],
    ]);
  });

  it.each<[string, Fault, RowAdditions, string]>([
    [
      "adding the second batch",
      { on: "add", after: 1, mode: "throw" },
      additions([0, 1, 2], true),
      "could not add rows 3-3: add refused by the database",
    ],
    [
      "replacing a batch",
      { on: "delete", mode: "throw" },
      additions([0, 1], false),
      "could not replace rows 1-2: delete refused by the database",
    ],
  ])(
    "fails with VECTOR_STORE_FAILED naming the step when the store throws while %s",
    async (_step, fault, add, message) => {
      const error = await rejection(writeRows(new RecordingVectorStore(fault), PLAIN, CHUNKS, LSA, ROWS, add, LIMITS));
      expect(error).toBeInstanceOf(LookupKnowledgeError);
      expect(error).toMatchObject({
        code: "VECTOR_STORE_FAILED",
        message: `lookup-knowledge: the fake vector store ${message}`,
      });
      expect((error as Error).cause).toBeInstanceOf(Error);
    },
  );

  it("stops at the failed step, writing nothing after it", async () => {
    const store = new RecordingVectorStore({ on: "add", after: 1, mode: "throw" });
    await rejection(writeRows(store, PLAIN, CHUNKS, LSA, ROWS, additions([0, 1, 2, 3, 4], false), LIMITS));
    expect(script(store)).toEqual(["delete 0,1", "add 0,1", "delete 2,3"]);
  });

  it.each<[string, Fault, RowAdditions, string]>([
    ["adding", { on: "add", mode: "hang" }, additions([0, 1], true), "did not add rows 1-2 within 20 ms"],
    ["replacing", { on: "delete", mode: "hang" }, additions([3], false), "did not replace rows 1-1 within 20 ms"],
  ])(
    "fails with VECTOR_STORE_TIMEOUT naming the step when the store hangs while %s",
    async (_step, fault, add, message) => {
      const error = await rejection(
        writeRows(new RecordingVectorStore(fault), PLAIN, CHUNKS, LSA, ROWS, add, { batchSize: 2, timeoutMs: 20 }),
      );
      expect(error).toMatchObject({
        code: "VECTOR_STORE_TIMEOUT",
        message: expect.stringContaining(`the fake vector store ${message}`),
      });
    },
  );
});

describe("storeCall", () => {
  it("resolves when the call does", async () => {
    let ran = 0;
    await storeCall(PLAIN, "ping", { timeoutMs: 0 }, async () => void ran++);
    expect(ran).toBe(1);
  });

  it("turns a call that throws synchronously, or rejects with a non-Error, into VECTOR_STORE_FAILED naming the step", async () => {
    const sync = await rejection(
      storeCall(PLAIN, "count its rows", { timeoutMs: 0 }, () => {
        throw new TypeError("pool.query is not a function");
      }),
    );
    expect(sync).toMatchObject({
      code: "VECTOR_STORE_FAILED",
      message: "lookup-knowledge: the fake vector store could not count its rows: pool.query is not a function",
    });
    const text = await rejection(
      storeCall(PLAIN, "count its rows", { timeoutMs: 0 }, async () => Promise.reject("ECONNRESET")),
    );
    expect(text).toMatchObject({
      code: "VECTOR_STORE_FAILED",
      message: "lookup-knowledge: the fake vector store could not count its rows: ECONNRESET",
    });
  });

  it("hands what the store prints during a call that succeeds to onWarning, one line each, never to the console", async () => {
    const original = console.error;
    const printed = vi.fn();
    console.error = printed;
    try {
      const warnings: string[] = [];
      await storeCall(PLAIN, "add rows 1-2", { timeoutMs: 0, onWarning: (line) => warnings.push(line) }, async () => {
        console.error(`Failed to create HNSW index, error: ${"x".repeat(400)}\n    at stack`);
      });
      expect(warnings).toEqual([
        `lookup-knowledge: the fake vector store printed while asked to add rows 1-2: Failed to create HNSW index, error: ${"x".repeat(264)}…`,
      ]);
      expect(printed).not.toHaveBeenCalled();
    } finally {
      console.error = original;
    }
  });

  it("keeps what a failing call printed off the console and out of onWarning: its error says it", async () => {
    const original = console.error;
    const printed = vi.fn();
    console.error = printed;
    try {
      const warnings: string[] = [];
      const error = await rejection(
        storeCall(PLAIN, "add rows 1-2", { timeoutMs: 0, onWarning: (line) => warnings.push(line) }, async () => {
          console.error(new Error("expected 3 dimensions, not 11"));
          throw new Error("Error inserting: expected 3 dimensions, not 11");
        }),
      );
      expect(error).toMatchObject({ code: "VECTOR_STORE_FAILED" });
      expect((error as Error).message).toContain("expected 3 dimensions, not 11");
      expect(warnings).toEqual([]);
      expect(printed).not.toHaveBeenCalled();
    } finally {
      console.error = original;
    }
  });

  it("passes a LookupKnowledgeError of the call through with its own code", async () => {
    const own = new LookupKnowledgeError("INVALID_OPTION", "no such table");
    expect(await rejection(storeCall(PLAIN, "count its rows", { timeoutMs: 0 }, async () => Promise.reject(own)))).toBe(
      own,
    );
  });

  it("fails with VECTOR_STORE_TIMEOUT naming the step and the deadline when the call hangs", async () => {
    const error = await rejection(storeCall(PLAIN, "count its rows", { timeoutMs: 15 }, () => new Promise(() => {})));
    expect(error).toMatchObject({
      code: "VECTOR_STORE_TIMEOUT",
      message:
        "lookup-knowledge: the fake vector store did not count its rows within 15 ms; check the database, or raise embedTimeoutMs.",
    });
  });
});

describe("pruneRows", () => {
  const PENDING = ["old-1", "old-2", "old-3", "old-4", "old-5"];

  it("deletes the pending rows in batches of batchSize, then the namespace's other generations", async () => {
    const store = new RecordingVectorStore();
    const dialect = pruningDialect(store);
    expect(await pruneRows(store, dialect, ROWS, PENDING, LIMITS)).toEqual({ pendingDeleted: true, warning: null });
    expect(script(store)).toEqual([
      "delete old-1,old-2",
      "delete old-3,old-4",
      "delete old-5",
      'prune {"namespace":"handbook","generation":"0123456789abcdef"}',
    ]);
  });

  it("only deletes the other generations when nothing is pending", async () => {
    const store = new RecordingVectorStore();
    expect(await pruneRows(store, pruningDialect(store), ROWS, [], LIMITS)).toEqual({
      pendingDeleted: true,
      warning: null,
    });
    expect(script(store)).toEqual(['prune {"namespace":"handbook","generation":"0123456789abcdef"}']);
  });

  it("deletes pending rows through the dialect's deleteIds when it has one", async () => {
    const store = new RecordingVectorStore();
    const used: string[][] = [];
    const dialect = {
      ...pruningDialect(store),
      deleteIds: async (_store: VectorStoreInterface, ids: string[]) => void used.push(ids),
    };
    await pruneRows(store, dialect, ROWS, PENDING, { batchSize: 3, timeoutMs: 0 });
    expect(used).toEqual([
      ["old-1", "old-2", "old-3"],
      ["old-4", "old-5"],
    ]);
  });

  it("calls deleteOtherGenerations as a method of the dialect, so a dialect written as a class keeps its this", async () => {
    const store = new RecordingVectorStore();
    class TableDialect implements VectorStoreDialect {
      readonly name = "table";
      readonly seen: string[] = [];
      filter(scope: RowScope) {
        return scope;
      }
      similarity(score: number) {
        return score;
      }
      async deleteOtherGenerations(_store: VectorStoreInterface, scope: { namespace: string; generation: string }) {
        this.seen.push(`${scope.namespace}@${scope.generation}`);
      }
    }
    const dialect = new TableDialect();
    expect(await pruneRows(store, dialect, ROWS, [], LIMITS)).toEqual({ pendingDeleted: true, warning: null });
    expect(dialect.seen).toEqual(["handbook@0123456789abcdef"]);
  });

  it("returns a warning with pendingDeleted false when a pending delete fails, and deletes no other generation", async () => {
    const store = new RecordingVectorStore({ on: "delete", after: 1, mode: "throw" });
    const dialect = pruningDialect(store);
    const result = await pruneRows(store, dialect, ROWS, PENDING, LIMITS);
    expect(result).toEqual({
      pendingDeleted: false,
      warning:
        "lookup-knowledge: the index is saved, but the fake vector store could not delete 2 old rows: delete refused by the database; those rows are never returned, and the next save deletes them.",
    });
    expect(script(store)).toEqual(["delete old-1,old-2"]);
    expect(dialect.scopes).toEqual([]);
  });

  it("returns a timeout warning with pendingDeleted false when a pending delete hangs", async () => {
    const store = new RecordingVectorStore({ on: "delete", mode: "hang" });
    const result = await pruneRows(store, pruningDialect(store), ROWS, ["old-1"], { batchSize: 2, timeoutMs: 20 });
    expect(result.pendingDeleted).toBe(false);
    expect(result.warning).toContain(
      "the index is saved, but the fake vector store did not delete 1 old rows within 20 ms",
    );
  });

  it.each([
    ["throws", "throw", "could not delete the rows of earlier builds: permission denied for table lk_rows"],
    ["hangs", "hang", "did not delete the rows of earlier builds within 20 ms"],
  ] as const)(
    "returns a warning with pendingDeleted true when deleting the other generations %s",
    async (_what, fails, detail) => {
      const store = new RecordingVectorStore();
      const result = await pruneRows(store, pruningDialect(store, fails), ROWS, ["old-1"], {
        batchSize: 2,
        timeoutMs: 20,
      });
      expect(result.pendingDeleted).toBe(true);
      expect(result.warning).toContain(`the index is saved, but the fake vector store ${detail}`);
      expect(script(store)).toEqual(["delete old-1"]);
    },
  );

  it("deletes the pending rows but warns that earlier builds' rows stay when the dialect has no deleteOtherGenerations", async () => {
    const store = new RecordingVectorStore();
    expect(await pruneRows(store, PLAIN, ROWS, ["old-1", "old-2", "old-3"], LIMITS)).toEqual({
      pendingDeleted: true,
      warning:
        "lookup-knowledge: the fake dialect has no deleteOtherGenerations, so rows of earlier builds stay in the store (never returned: lookups filter on the generation).",
    });
    expect(script(store)).toEqual(["delete old-1,old-2", "delete old-3"]);
  });

  it("never throws, even when the dialect's deleteIds throws synchronously something that is not an Error", async () => {
    const store = new RecordingVectorStore();
    const dialect: VectorStoreDialect = {
      ...pruningDialect(store),
      deleteIds: () => {
        throw "socket hang up";
      },
    };
    const result = await pruneRows(store, dialect, ROWS, ["old-1"], LIMITS);
    expect(result).toEqual({
      pendingDeleted: false,
      warning: expect.stringContaining("could not delete 1 old rows: socket hang up"),
    });
  });
});

describe("targetProblem", () => {
  const fields = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`field_${i}`, i]));

  it.each<[string, unknown]>([
    ["an empty target", {}],
    ["pgvector's target with nulls", { schema: null, table: "lk_rows", collection: null }],
    ["a target with numbers", { collection: "kb", port: 6333, weight: -0.5 }],
    [`${MAX_TARGET_FIELDS} fields`, fields(MAX_TARGET_FIELDS)],
    ["a key of 32 characters", { ["k".repeat(32)]: 1 }],
    [`a string of ${MAX_TARGET_STRING} characters`, { url: "u".repeat(MAX_TARGET_STRING) }],
  ])("finds nothing wrong with %s", (_name, target) => {
    expect(targetProblem(target)).toBeNull();
  });

  it.each<[string, unknown]>([
    ["null", null],
    ["undefined", undefined],
    ["a list", ["lk_rows"]],
    ["a string", "lk_rows"],
    ["a number", 5432],
  ])("says %s is not an object", (_name, target) => {
    expect(targetProblem(target)).toBe("is not an object");
  });

  it(`refuses more than ${MAX_TARGET_FIELDS} fields, saying how many`, () => {
    expect(targetProblem(fields(MAX_TARGET_FIELDS + 1))).toBe(
      `has ${MAX_TARGET_FIELDS + 1} fields (at most ${MAX_TARGET_FIELDS})`,
    );
    expect(targetProblem(fields(10_000))).toBe(`has 10000 fields (at most ${MAX_TARGET_FIELDS})`);
  });

  it.each([
    "1table",
    "table-name",
    "table name",
    "schema.table",
    "tåble",
    "",
    "k".repeat(33),
    'x"); DROP TABLE users; --',
  ])("refuses the field name %j", (key) => {
    expect(targetProblem({ [key]: "x" })).toBe("has a field name that is not a short identifier");
  });

  it.each<[string, unknown]>([
    ["an object", { name: "lk_rows" }],
    ["a list", ["a", "b"]],
    ["a boolean", true],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["undefined", undefined],
    ["a function", () => "lk_rows"],
    [`a string of ${MAX_TARGET_STRING + 1} characters`, "u".repeat(MAX_TARGET_STRING + 1)],
  ])("refuses a field whose value is %s, naming the field", (_name, value) => {
    expect(targetProblem({ table: "lk_rows", url: value })).toBe(
      `field url is not null, a finite number or a string of at most ${MAX_TARGET_STRING} characters`,
    );
  });
});

describe("targetOf", () => {
  const store = {
    addVectors: async () => {},
    similaritySearchVectorWithScore: async () => [],
  } as unknown as VectorStoreInterface;
  const withTarget = (target: (given: VectorStoreInterface) => unknown): VectorStoreDialect => ({
    ...PLAIN,
    target: target as VectorStoreDialect["target"],
  });

  it("is an empty target for a dialect without target(), or whose target() gives nothing", () => {
    expect(targetOf({ store, dialect: PLAIN })).toEqual({});
    expect(targetOf({ store, dialect: withTarget(() => undefined) })).toEqual({});
    expect(targetOf({ store, dialect: withTarget(() => null) })).toEqual({});
  });

  it("asks the dialect about the store and returns a copy of its target", () => {
    const target = { schema: null, table: "lk_rows" };
    const seen: unknown[] = [];
    const got = targetOf({
      store,
      dialect: withTarget((given) => {
        seen.push(given);
        return target;
      }),
    });
    expect(got).toEqual(target);
    expect(got).not.toBe(target);
    expect(seen).toEqual([store]);
  });

  it("fails with INVALID_OPTION, keeping the cause, when target() throws", () => {
    const cause = new Error("store is closed");
    const call = () =>
      targetOf({
        store,
        dialect: withTarget(() => {
          throw cause;
        }),
      });
    expect(call).toThrow(
      expect.objectContaining({
        code: "INVALID_OPTION",
        message: "lookup-knowledge: the fake dialect's target() threw: store is closed.",
        cause,
      }),
    );
  });

  it.each<[string, unknown, string]>([
    [
      `more than ${MAX_TARGET_FIELDS} fields`,
      Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`f${i}`, i])),
      "has 17 fields (at most 16)",
    ],
    ["a key that is not an identifier", { "table name": "x" }, "has a field name that is not a short identifier"],
    [
      "an object value",
      { table: { name: "x" } },
      "field table is not null, a finite number or a string of at most 1000 characters",
    ],
    [
      "a long string",
      { url: "u".repeat(1001) },
      "field url is not null, a finite number or a string of at most 1000 characters",
    ],
    ["a list", ["lk_rows"], "is not an object"],
    ["a string", "lk_rows", "is not an object"],
  ])("fails with INVALID_OPTION naming the problem when target() gives %s", (_name, target, problem) => {
    expect(() => targetOf({ store, dialect: withTarget(() => target) })).toThrow(
      expect.objectContaining({
        code: "INVALID_OPTION",
        message: `lookup-knowledge: the fake dialect's target() ${problem}; it is saved in the manifest, so return a small object of strings and numbers.`,
      }),
    );
  });
});

describe("checkVectorStoreOption", () => {
  const store = () =>
    ({
      addVectors: async () => {},
      similaritySearchVectorWithScore: async () => [],
    }) as unknown as VectorStoreInterface;
  const FIX = "pass { store, dialect }";

  it.each<[string, unknown]>([
    ["null", null],
    ["undefined", undefined],
    ["a store given without its dialect wrapper", "postgresql://localhost/db"],
    ["a number", 3],
  ])("refuses %s as the option, saying to pass { store, dialect }", (_name, option) => {
    expect(() => checkVectorStoreOption(option, undefined)).toThrow(
      expect.objectContaining({
        code: "INVALID_OPTION",
        message: expect.stringMatching(/option vectorStore must be an object; pass \{ store, dialect \}/),
      }),
    );
  });

  it.each<[string, unknown]>([
    ["no store", { dialect: PLAIN }],
    ["a store without similaritySearchVectorWithScore", { store: { addVectors: async () => {} }, dialect: PLAIN }],
    ["a store without addVectors", { store: { similaritySearchVectorWithScore: async () => [] }, dialect: PLAIN }],
    ["a retriever instead of a store", { store: { invoke: async () => [] }, dialect: PLAIN }],
  ])("refuses an option with %s, naming the methods a store needs", (_name, option) => {
    expect(() => checkVectorStoreOption(option, undefined)).toThrow(
      expect.objectContaining({
        code: "INVALID_OPTION",
        message: expect.stringContaining(
          `option vectorStore.store must be a LangChain vector store (with addVectors and similaritySearchVectorWithScore); ${FIX}`,
        ),
      }),
    );
  });

  it.each<[string, unknown]>([
    ["no dialect", undefined],
    ["a dialect name instead of a dialect", "pgvector"],
    ["a dialect without a name", { filter: () => ({}), similarity: (score: number) => score }],
    ["a dialect without filter", { name: "x", similarity: (score: number) => score }],
    [
      "a dialect written for domainFilter, before filter replaced it",
      { name: "x", domainFilter: () => ({}), similarity: (score: number) => score },
    ],
    ["a dialect without similarity", { name: "x", filter: () => ({}) }],
  ])("refuses an option with %s, naming the dialect's fields", (_name, dialect) => {
    expect(() => checkVectorStoreOption({ store: store(), dialect }, undefined)).toThrow(
      expect.objectContaining({
        code: "INVALID_OPTION",
        message: expect.stringContaining(`option vectorStore.dialect must have a name, filter and similarity; ${FIX}`),
      }),
    );
  });

  it.each([
    "",
    "PgVector",
    "1pg",
    "pg vector",
    "pg/vector",
    "pg.vector",
    "pgvector\n",
    "_pg",
    "d".repeat(65),
    "pgvector\u202e",
  ])("refuses the dialect name %j, since the manifest saves it", (name) => {
    expect(() => checkVectorStoreOption({ store: store(), dialect: { ...PLAIN, name } }, undefined)).toThrow(
      expect.objectContaining({
        code: "INVALID_OPTION",
        message:
          "lookup-knowledge: option vectorStore.dialect.name must be 1-64 of a-z, 0-9, _ and -, starting with a letter (it is saved in the manifest).",
      }),
    );
  });

  it.each(["q", "pgvector", "my-store_2", "d".repeat(64)])("accepts the dialect name %j", (name) => {
    expect(checkVectorStoreOption({ store: store(), dialect: { ...PLAIN, name } }, undefined).dialect.name).toBe(name);
  });

  it.each<unknown>(["", "n".repeat(65), "kb/one", "kb one", "kb\u0000", "ümlaut", 7, { name: "kb" }])(
    "refuses the namespace %j",
    (namespace) => {
      expect(() => checkVectorStoreOption({ store: store(), dialect: PLAIN, namespace }, undefined)).toThrow(
        expect.objectContaining({
          code: "INVALID_OPTION",
          message: "lookup-knowledge: option vectorStore.namespace must be 1-64 letters, digits, _, . or -.",
        }),
      );
    },
  );

  it.each(["default", "kb-1.prod_2", "Handbook", "n".repeat(64)])("accepts the namespace %j", (namespace) => {
    expect(checkVectorStoreOption({ store: store(), dialect: PLAIN, namespace }, undefined).namespace).toBe(namespace);
  });

  it.each([0, 1, 2, 100])("accepts keepGenerations %j", (keepGenerations) => {
    expect(checkVectorStoreOption({ store: store(), dialect: PLAIN, keepGenerations }, undefined).keepGenerations).toBe(
      keepGenerations,
    );
  });

  it.each<unknown>([-1, 0.5, 101, "1", Number.NaN])(
    "refuses keepGenerations %j with INVALID_OPTION naming the range",
    (keepGenerations) => {
      expect(() => checkVectorStoreOption({ store: store(), dialect: PLAIN, keepGenerations }, undefined)).toThrow(
        expect.objectContaining({
          code: "INVALID_OPTION",
          message: expect.stringContaining("option vectorStore.keepGenerations must be an integer from 0 to 100"),
        }),
      );
    },
  );

  it("refuses embeddings: null with a store, since the store holds L1 vectors", () => {
    expect(() => checkVectorStoreOption({ store: store(), dialect: PLAIN }, null)).toThrow(
      expect.objectContaining({
        code: "INVALID_OPTION",
        message: expect.stringContaining(
          "option vectorStore needs embeddings for L1; leave embeddings out (the default embedder) or pass yours, not null.",
        ),
      }),
    );
  });

  it("returns the store, the dialect and the default namespace, with the default or custom embeddings", () => {
    const option = { store: store(), dialect: PLAIN };
    expect(DEFAULT_NAMESPACE).toBe("default");
    expect(checkVectorStoreOption(option, undefined)).toEqual({
      store: option.store,
      dialect: PLAIN,
      namespace: "default",
      keepGenerations: 1,
    });
    const checked = checkVectorStoreOption(option, new UnusedEmbeddings());
    expect(checked.store).toBe(option.store);
    expect(checked.dialect).toBe(PLAIN);
  });

  it("keeps only the fields it checked, dropping anything else the option carried", () => {
    const option = {
      store: store(),
      dialect: PLAIN,
      namespace: "handbook",
      connectionString: "postgresql://lk:secret@db/kb",
    };
    expect(Object.keys(checkVectorStoreOption(option, undefined)).sort()).toEqual([
      "dialect",
      "keepGenerations",
      "namespace",
      "store",
    ]);
  });

  it("calls the dialect's attach with the store once it is valid, and not when it is refused", () => {
    const attached: unknown[] = [];
    const dialect: VectorStoreDialect = { ...PLAIN, attach: (given) => void attached.push(given) };
    const given = store();
    checkVectorStoreOption({ store: given, dialect }, undefined);
    expect(attached).toEqual([given]);
    expect(() => checkVectorStoreOption({ store: given, dialect }, null)).toThrow(LookupKnowledgeError);
    expect(() => checkVectorStoreOption({ store: {}, dialect }, undefined)).toThrow(LookupKnowledgeError);
    expect(() => checkVectorStoreOption({ store: given, dialect, namespace: "no spaces allowed" }, undefined)).toThrow(
      LookupKnowledgeError,
    );
    expect(() =>
      checkVectorStoreOption({ store: given, dialect: { ...dialect, name: "Bad Name" } }, undefined),
    ).toThrow(LookupKnowledgeError);
    expect(attached).toHaveLength(1);
  });
});
