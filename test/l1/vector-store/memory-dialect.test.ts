import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import { Document } from "@langchain/core/documents";
import { FakeEmbeddings } from "@langchain/core/utils/testing";
import { describe, expect, it } from "vitest";
import { memoryDialect } from "../../../src/l1/vector-store/memory-dialect.js";
import { clearRows, deleteRows } from "../../../src/l1/vector-store/vector-store-dialect.js";

/** A real MemoryVectorStore holding rows as this package writes them: `lk_id`, `lk_kind`, domain. */
async function storeWith(rows: { id: string; domain: string | null; vector: number[] }[]): Promise<MemoryVectorStore> {
  const store = new MemoryVectorStore(new FakeEmbeddings());
  await store.addVectors(
    rows.map((row) => row.vector),
    rows.map((row) => new Document({ pageContent: `text of ${row.id}`, metadata: { lk_kind: "chunk", lk_id: row.id, domain: row.domain }, id: row.id })),
  );
  return store;
}

const ROWS = [
  { id: "row-a", domain: "billing", vector: [1, 0, 0] },
  { id: "row-b", domain: "ops", vector: [0.6, 0.8, 0] },
  { id: "row-c", domain: "billing", vector: [0, 0, 1] },
  { id: "row-d", domain: null, vector: [0.8, 0.6, 0] },
];

const rowIds = (store: MemoryVectorStore) => store.memoryVectors.map((row) => row.metadata.lk_id);

describe("memoryDialect.domainFilter", () => {
  it("is a predicate on the document's metadata.domain", () => {
    const billing = memoryDialect.domainFilter("billing") as (doc: Document) => boolean;
    expect(typeof billing).toBe("function");
    expect(billing(new Document({ pageContent: "", metadata: { domain: "billing" } }))).toBe(true);
    expect(billing(new Document({ pageContent: "", metadata: { domain: "ops" } }))).toBe(false);
    expect(billing(new Document({ pageContent: "", metadata: { domain: null } }))).toBe(false);
    expect(billing(new Document({ pageContent: "", metadata: {} }))).toBe(false);
  });

  it("filters inside MemoryVectorStore's search, so k fills with rows of that domain", async () => {
    const store = await storeWith(ROWS);
    const hits = await store.similaritySearchVectorWithScore([1, 0, 0], 2, memoryDialect.domainFilter("billing") as (doc: Document) => boolean);
    expect(hits.map(([doc]) => doc.metadata.lk_id)).toEqual(["row-a", "row-c"]);
  });
});

describe("memoryDialect.similarity", () => {
  it("passes MemoryVectorStore's cosine similarities through unchanged", async () => {
    const store = await storeWith(ROWS);
    const hits = await store.similaritySearchVectorWithScore([1, 0, 0], 4);
    const byId = Object.fromEntries(hits.map(([doc, score]) => [doc.metadata.lk_id, memoryDialect.similarity(score, store)]));
    expect(byId["row-a"]).toBeCloseTo(1, 10);
    expect(byId["row-b"]).toBeCloseTo(0.6, 10);
    expect(byId["row-c"]).toBeCloseTo(0, 10);
    expect(byId["row-d"]).toBeCloseTo(0.8, 10);
  });
});

describe("memoryDialect.deleteIds", () => {
  it("removes the rows whose lk_id is listed and keeps the others in order", async () => {
    const store = await storeWith(ROWS);
    await memoryDialect.deleteIds!(store, ["row-b", "row-d", "no-such-row"]);
    expect(rowIds(store)).toEqual(["row-a", "row-c"]);
    const hits = await store.similaritySearchVectorWithScore([0.6, 0.8, 0], 4);
    expect(hits.map(([doc]) => doc.metadata.lk_id).sort()).toEqual(["row-a", "row-c"]);
  });

  it("is what deleteRows uses, instead of MemoryVectorStore's missing delete", async () => {
    const store = await storeWith(ROWS);
    await expect(store.delete({ ids: ["row-a"] })).rejects.toThrow();
    await deleteRows(store, memoryDialect, ["row-a"]);
    expect(rowIds(store)).toEqual(["row-b", "row-c", "row-d"]);
  });

  it("changes nothing for an empty list", async () => {
    const store = await storeWith(ROWS);
    await memoryDialect.deleteIds!(store, []);
    expect(rowIds(store)).toEqual(["row-a", "row-b", "row-c", "row-d"]);
  });
});

describe("memoryDialect.clear", () => {
  it("empties the store, through clearRows too, and the store takes new rows afterwards", async () => {
    const store = await storeWith(ROWS);
    await memoryDialect.clear!(store);
    expect(store.memoryVectors).toEqual([]);
    expect(await store.similaritySearchVectorWithScore([1, 0, 0], 4)).toEqual([]);

    const again = await storeWith(ROWS);
    await clearRows(again, memoryDialect);
    expect(again.memoryVectors).toEqual([]);
    await again.addVectors([[0, 1, 0]], [new Document({ pageContent: "new", metadata: { lk_kind: "chunk", lk_id: "row-e", domain: "ops" } })]);
    expect(rowIds(again)).toEqual(["row-e"]);
  });
});

describe("memoryDialect", () => {
  it("is named memory and records no target", () => {
    expect(memoryDialect.name).toBe("memory");
    expect(memoryDialect.target).toBeUndefined();
    expect(memoryDialect.attach).toBeUndefined();
  });
});
