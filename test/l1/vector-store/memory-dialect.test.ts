import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import { Document } from "@langchain/core/documents";
import { FakeEmbeddings } from "@langchain/core/utils/testing";
import { describe, expect, it } from "vitest";
import { memoryDialect } from "../../../src/l1/vector-store/memory-dialect.js";
import { deleteRows, type RowScope } from "../../../src/l1/vector-store/vector-store-dialect.js";

const GEN = "0123456789abcdef";
const OLD = "fedcba9876543210";

interface Row {
  id: string;
  kb?: string;
  gen?: string;
  domain: string | null;
  vector: number[];
}

/** A real MemoryVectorStore holding rows as this package writes them: `lk_id`, `lk_kind`, `lk_kb`, `lk_gen`, domain. */
async function storeWith(rows: Row[]): Promise<MemoryVectorStore> {
  const store = new MemoryVectorStore(new FakeEmbeddings());
  await store.addVectors(
    rows.map((row) => row.vector),
    rows.map(
      (row) =>
        new Document({
          pageContent: `text of ${row.id}`,
          metadata: {
            lk_kind: "chunk",
            lk_id: row.id,
            ...(row.kb === undefined ? {} : { lk_kb: row.kb }),
            ...(row.gen === undefined ? {} : { lk_gen: row.gen }),
            domain: row.domain,
          },
          id: row.id,
        }),
    ),
  );
  return store;
}

/** Rows of the current generation of "handbook", of its old generation, of another knowledge base, and one no knowledge base wrote. */
const ROWS: Row[] = [
  { id: "row-a", kb: "handbook", gen: GEN, domain: "billing", vector: [1, 0, 0] },
  { id: "row-b", kb: "handbook", gen: GEN, domain: "ops", vector: [0.6, 0.8, 0] },
  { id: "row-c", kb: "handbook", gen: GEN, domain: "billing", vector: [0, 0, 1] },
  { id: "row-d", kb: "handbook", gen: GEN, domain: null, vector: [0.8, 0.6, 0] },
  { id: "old-a", kb: "handbook", gen: OLD, domain: "billing", vector: [1, 0, 0] },
  { id: "other-a", kb: "runbooks", gen: GEN, domain: "billing", vector: [1, 0, 0] },
  { id: "other-old", kb: "runbooks", gen: OLD, domain: "billing", vector: [1, 0, 0] },
  { id: "foreign", domain: "billing", vector: [1, 0, 0] },
];

const HANDBOOK: RowScope = { namespace: "handbook", generation: GEN, domain: null };
const rowIds = (store: MemoryVectorStore) => store.memoryVectors.map((row) => row.metadata.lk_id);
const predicate = (scope: RowScope) => memoryDialect.filter(scope) as (doc: Document) => boolean;
const doc = (metadata: Record<string, unknown>) => new Document({ pageContent: "", metadata });

describe("memoryDialect.filter", () => {
  it("is a predicate on the document's lk_kb, lk_gen and, when given, domain", () => {
    const billing = predicate({ ...HANDBOOK, domain: "billing" });
    expect(typeof billing).toBe("function");
    expect(billing(doc({ lk_kb: "handbook", lk_gen: GEN, domain: "billing" }))).toBe(true);
    expect(billing(doc({ lk_kb: "handbook", lk_gen: GEN, domain: "ops" }))).toBe(false);
    expect(billing(doc({ lk_kb: "handbook", lk_gen: GEN, domain: null }))).toBe(false);
    expect(billing(doc({ lk_kb: "handbook", lk_gen: OLD, domain: "billing" }))).toBe(false);
    expect(billing(doc({ lk_kb: "runbooks", lk_gen: GEN, domain: "billing" }))).toBe(false);
    expect(billing(doc({ domain: "billing" }))).toBe(false);
    expect(billing(doc({}))).toBe(false);
  });

  it("lets every domain, and none, through for a null domain, but only of the namespace and generation", () => {
    const all = predicate(HANDBOOK);
    expect(all(doc({ lk_kb: "handbook", lk_gen: GEN, domain: "ops" }))).toBe(true);
    expect(all(doc({ lk_kb: "handbook", lk_gen: GEN, domain: null }))).toBe(true);
    expect(all(doc({ lk_kb: "handbook", lk_gen: GEN }))).toBe(true);
    expect(all(doc({ lk_kb: "handbook", lk_gen: OLD, domain: "ops" }))).toBe(false);
    expect(all(doc({ lk_kb: "runbooks", lk_gen: GEN, domain: "ops" }))).toBe(false);
  });

  it("does not mistake a domain named null for the absence of a domain", () => {
    expect(predicate({ ...HANDBOOK, domain: "null" })(doc({ lk_kb: "handbook", lk_gen: GEN, domain: null }))).toBe(
      false,
    );
  });

  it("filters inside MemoryVectorStore's search, so k fills with the knowledge base's current rows of that domain", async () => {
    const store = await storeWith(ROWS);
    const hits = await store.similaritySearchVectorWithScore(
      [1, 0, 0],
      2,
      predicate({ ...HANDBOOK, domain: "billing" }),
    );
    expect(hits.map(([hit]) => hit.metadata.lk_id)).toEqual(["row-a", "row-c"]);
  });

  it("returns only the current generation of the namespace, of every domain, for a lookup without domain", async () => {
    const store = await storeWith(ROWS);
    const hits = await store.similaritySearchVectorWithScore([1, 0, 0], 10, predicate(HANDBOOK));
    expect(hits.map(([hit]) => hit.metadata.lk_id).sort()).toEqual(["row-a", "row-b", "row-c", "row-d"]);
  });

  it("returns another knowledge base's rows only to a search in its namespace", async () => {
    const store = await storeWith(ROWS);
    const hits = await store.similaritySearchVectorWithScore(
      [1, 0, 0],
      10,
      predicate({ namespace: "runbooks", generation: GEN, domain: null }),
    );
    expect(hits.map(([hit]) => hit.metadata.lk_id)).toEqual(["other-a"]);
  });
});

describe("memoryDialect.similarity", () => {
  it("passes MemoryVectorStore's cosine similarities through unchanged", async () => {
    const store = await storeWith(ROWS.slice(0, 4));
    const hits = await store.similaritySearchVectorWithScore([1, 0, 0], 4);
    const byId = Object.fromEntries(
      hits.map(([hit, score]) => [hit.metadata.lk_id, memoryDialect.similarity(score, store)]),
    );
    expect(byId["row-a"]).toBeCloseTo(1, 10);
    expect(byId["row-b"]).toBeCloseTo(0.6, 10);
    expect(byId["row-c"]).toBeCloseTo(0, 10);
    expect(byId["row-d"]).toBeCloseTo(0.8, 10);
  });
});

describe("memoryDialect.deleteIds", () => {
  it("removes the rows whose lk_id is listed and keeps the others in order", async () => {
    const store = await storeWith(ROWS.slice(0, 4));
    await memoryDialect.deleteIds!(store, ["row-b", "row-d", "no-such-row"]);
    expect(rowIds(store)).toEqual(["row-a", "row-c"]);
    const hits = await store.similaritySearchVectorWithScore([0.6, 0.8, 0], 4);
    expect(hits.map(([hit]) => hit.metadata.lk_id).sort()).toEqual(["row-a", "row-c"]);
  });

  it("is what deleteRows uses, instead of MemoryVectorStore's missing delete", async () => {
    const store = await storeWith(ROWS.slice(0, 4));
    await expect(store.delete({ ids: ["row-a"] })).rejects.toThrow();
    await deleteRows(store, memoryDialect, ["row-a"]);
    expect(rowIds(store)).toEqual(["row-b", "row-c", "row-d"]);
  });

  it("changes nothing for an empty list", async () => {
    const store = await storeWith(ROWS.slice(0, 4));
    await memoryDialect.deleteIds!(store, []);
    expect(rowIds(store)).toEqual(["row-a", "row-b", "row-c", "row-d"]);
  });
});

describe("memoryDialect.deleteOtherGenerations", () => {
  it("removes the namespace's rows of other generations and keeps its current ones in order", async () => {
    const store = await storeWith(ROWS);
    await memoryDialect.deleteOtherGenerations!(store, { namespace: "handbook", generation: GEN });
    expect(rowIds(store)).toEqual(["row-a", "row-b", "row-c", "row-d", "other-a", "other-old", "foreign"]);
  });

  it("leaves every row of other namespaces alone, whatever their generation, and rows no knowledge base wrote", async () => {
    const store = await storeWith(ROWS);
    await memoryDialect.deleteOtherGenerations!(store, { namespace: "handbook", generation: OLD });
    expect(rowIds(store)).toEqual(["old-a", "other-a", "other-old", "foreign"]);
  });

  it("removes every row of the namespace when none is of the generation kept (a build whose rows were all written elsewhere)", async () => {
    const store = await storeWith(ROWS);
    await memoryDialect.deleteOtherGenerations!(store, { namespace: "runbooks", generation: "aaaaaaaaaaaaaaaa" });
    expect(rowIds(store)).toEqual(["row-a", "row-b", "row-c", "row-d", "old-a", "foreign"]);
  });

  it("changes nothing in a namespace that has no rows, and the store takes new rows afterwards", async () => {
    const store = await storeWith(ROWS);
    await memoryDialect.deleteOtherGenerations!(store, { namespace: "nobody", generation: GEN });
    expect(rowIds(store)).toEqual(ROWS.map((row) => row.id));
    await store.addVectors(
      [[0, 1, 0]],
      [
        new Document({
          pageContent: "new",
          metadata: { lk_kind: "chunk", lk_kb: "nobody", lk_gen: GEN, lk_id: "row-e", domain: "ops" },
        }),
      ],
    );
    expect(rowIds(store)).toContain("row-e");
  });
});

describe("memoryDialect", () => {
  it("is named memory, records no target and needs no attach", () => {
    expect(memoryDialect.name).toBe("memory");
    expect(memoryDialect.target).toBeUndefined();
    expect(memoryDialect.attach).toBeUndefined();
    expect(typeof memoryDialect.deleteOtherGenerations).toBe("function");
  });
});
