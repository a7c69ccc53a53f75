import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import { describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import type { IndexManifest } from "../../src/knowledge-base/manifest.js";
import { reconnectVectorStore } from "../../src/knowledge-base/reconnect-vector-store.js";
import { memoryDialect } from "../../src/l1/vector-store/memory-dialect.js";
import { pgvectorDialect } from "../../src/l1/vector-store/pgvector-dialect.js";

const DIR = "/srv/kb-index";

/** A manifest as far as a reconnect reads it: only its vectorStore record. */
function manifestWith(vectorStore?: IndexManifest["vectorStore"]): IndexManifest {
  return (vectorStore === undefined ? {} : { vectorStore }) as IndexManifest;
}

/** An object with the two methods a vector store option needs, and the PGVectorStore fields the pgvector dialect reads. */
function pgLikeStore(fields: { tableName?: string; schemaName?: string | null } = {}): VectorStoreInterface {
  return { addVectors: async () => {}, similaritySearchVectorWithScore: async () => [], tableName: "lk_chunks", schemaName: null, ...fields } as unknown as VectorStoreInterface;
}

const PG_RECORD = { dialect: "pgvector", target: { schema: "kb", table: "lk_chunks", collection: null } };

function thrown(call: () => unknown): LookupKnowledgeError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(LookupKnowledgeError);
    return error as LookupKnowledgeError;
  }
  return expect.unreachable("reconnectVectorStore returned");
}

describe("reconnectVectorStore", () => {
  it("returns null for an index that keeps L1 in its HNSW graph, loaded without a store", () => {
    expect(reconnectVectorStore(DIR, manifestWith(), undefined)).toBeNull();
  });

  it("refuses a store for an index that keeps L1 in its HNSW graph, saying to load without it or rebuild into the store", () => {
    const error = thrown(() => reconnectVectorStore(DIR, manifestWith(), { store: pgLikeStore(), dialect: pgvectorDialect }));
    expect(error.code).toBe("VECTOR_STORE_REQUIRED");
    expect(error.message).toBe(
      `lookup-knowledge: the index in "${DIR}" keeps L1 in its own HNSW graph, not in a vector store; load it without vectorStore, or build it with the vectorStore option to move L1 into the store.`,
    );
  });

  it("asks for the recorded store, naming its dialect and target (without null fields), when the load got none", () => {
    const error = thrown(() => reconnectVectorStore(DIR, manifestWith(PG_RECORD), undefined));
    expect(error.code).toBe("VECTOR_STORE_REQUIRED");
    expect(error.message).toMatch(/^lookup-knowledge: the index in "\/srv\/kb-index" keeps L1 in a pgvector vector store \(schema "kb", table "lk_chunks"\); pass it to load as \{ vectorStore: \{ store, dialect \} \}/);
  });

  it("adds the CLI flags for a pgvector record, with the recorded table when it is a plain identifier", () => {
    expect(thrown(() => reconnectVectorStore(DIR, manifestWith(PG_RECORD), undefined)).message).toContain("--pgvector URL --pgvector-table lk_chunks");
    const odd = { dialect: "pgvector", target: { schema: null, table: "lk chunks; drop", collection: null } };
    expect(thrown(() => reconnectVectorStore(DIR, manifestWith(odd), undefined)).message).toContain("--pgvector-table NAME");
    expect(thrown(() => reconnectVectorStore(DIR, manifestWith({ dialect: "memory", target: {} }), undefined)).message).not.toContain("--pgvector");
  });

  it("names a store without a target by its dialect alone", () => {
    const error = thrown(() => reconnectVectorStore(DIR, manifestWith({ dialect: "memory", target: {} }), undefined));
    expect(error.message).toContain("keeps L1 in a memory vector store; pass it to load");
  });

  it("refuses a store of another dialect, naming both", () => {
    const error = thrown(() => reconnectVectorStore(DIR, manifestWith(PG_RECORD), { store: pgLikeStore({ schemaName: "kb" }), dialect: memoryDialect }));
    expect(error.code).toBe("VECTOR_STORE_REQUIRED");
    expect(error.message).toBe(
      `lookup-knowledge: the index in "${DIR}" keeps L1 in a pgvector vector store (schema "kb", table "lk_chunks"), but load got a memory store; connect to the recorded one.`,
    );
  });

  it.each([
    ["another table", { schemaName: "kb", tableName: "other_chunks" }, '(schema "kb", table "other_chunks")'],
    ["another schema", { schemaName: "public" }, '(schema "public", table "lk_chunks")'],
    ["the search path instead of the schema", { schemaName: null }, '(table "lk_chunks")'],
  ])("refuses a pgvector store on %s, naming the target it got", (_name, fields, described) => {
    const error = thrown(() => reconnectVectorStore(DIR, manifestWith(PG_RECORD), { store: pgLikeStore(fields), dialect: pgvectorDialect }));
    expect(error.code).toBe("VECTOR_STORE_REQUIRED");
    expect(error.message).toContain(`but load got a pgvector store ${described}; connect to the recorded one.`);
  });

  it("refuses a dialect that now records a target where the index recorded none", () => {
    const error = thrown(() => reconnectVectorStore(DIR, manifestWith({ dialect: "pgvector", target: {} }), { store: pgLikeStore(), dialect: pgvectorDialect }));
    expect(error.code).toBe("VECTOR_STORE_REQUIRED");
  });

  it("returns the store and dialect with the target it checked when both match the record", () => {
    const store = pgLikeStore({ schemaName: "kb" });
    const part = reconnectVectorStore(DIR, manifestWith(PG_RECORD), { store, dialect: pgvectorDialect });
    expect(part).not.toBeNull();
    expect(part!.store).toBe(store);
    expect(part!.dialect).toBe(pgvectorDialect);
    expect(part!.target).toEqual({ schema: "kb", table: "lk_chunks", collection: null });
  });

  it("matches a dialect without target against a record of an empty target", () => {
    const store = pgLikeStore();
    const part = reconnectVectorStore(DIR, manifestWith({ dialect: "memory", target: {} }), { store, dialect: memoryDialect });
    expect(part).toEqual({ store, dialect: memoryDialect, target: {} });
  });

  it("attaches the dialect to the store it reconnects to", () => {
    const attached: unknown[] = [];
    const store = pgLikeStore();
    reconnectVectorStore(DIR, manifestWith({ dialect: "memory", target: {} }), { store, dialect: { ...memoryDialect, attach: (given) => void attached.push(given) } });
    expect(attached).toEqual([store]);
  });

  it("checks the option like a build does, with INVALID_OPTION for something that is not a store", () => {
    const option = { store: { invoke: async () => [] }, dialect: pgvectorDialect } as unknown as Parameters<typeof reconnectVectorStore>[2];
    const error = thrown(() => reconnectVectorStore(DIR, manifestWith(PG_RECORD), option));
    expect(error.code).toBe("INVALID_OPTION");
  });
});
