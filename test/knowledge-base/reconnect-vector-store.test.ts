import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import { describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import type { IndexManifest } from "../../src/knowledge-base/manifest.js";
import { reconnectVectorStore } from "../../src/knowledge-base/reconnect-vector-store.js";
import { memoryDialect } from "../../src/l1/vector-store/memory-dialect.js";
import { pgvectorDialect } from "../../src/l1/vector-store/pgvector-dialect.js";
import type { VectorStoreDialect } from "../../src/l1/vector-store/vector-store-dialect.js";

const DIR = "/srv/kb-index";
const GENERATION = "0123456789abcdef";
const PENDING = ["6f1c0d3e-2b4a-4c5d-8e9f-0a1b2c3d4e5f", "0b7e2f4a-9c1d-4e3f-8a5b-6c7d8e9f0a1b"];

type Record = NonNullable<IndexManifest["vectorStore"]>;

/** A manifest as far as a reconnect reads it: only its vectorStore record. */
function manifestWith(vectorStore?: Record): IndexManifest {
  return (vectorStore === undefined ? {} : { vectorStore }) as IndexManifest;
}

/** A complete vectorStore record: of the default namespace, one generation, nothing pending, unless told otherwise. */
function record(fields: Partial<Record> & Pick<Record, "dialect" | "target">): Record {
  return { namespace: "default", generation: GENERATION, pendingDeletes: [], ...fields };
}

/** An object with the two methods a vector store option needs, and the PGVectorStore fields the pgvector dialect reads. */
function pgLikeStore(fields: { tableName?: string; schemaName?: string | null } = {}): VectorStoreInterface {
  return {
    addVectors: async () => {},
    similaritySearchVectorWithScore: async () => [],
    tableName: "lk_chunks",
    schemaName: null,
    ...fields,
  } as unknown as VectorStoreInterface;
}

const PG_RECORD = record({ dialect: "pgvector", target: { schema: "kb", table: "lk_chunks", collection: null } });
const MEMORY_RECORD = record({ dialect: "memory", target: {} });

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
    const error = thrown(() =>
      reconnectVectorStore(DIR, manifestWith(), { store: pgLikeStore(), dialect: pgvectorDialect }),
    );
    expect(error.code).toBe("VECTOR_STORE_REQUIRED");
    expect(error.message).toBe(
      `lookup-knowledge: the index in "${DIR}" keeps L1 in its own HNSW graph, not in a vector store; load it without vectorStore, or build it with the vectorStore option to move L1 into the store.`,
    );
  });

  it("asks for the recorded store, naming its dialect and target (without null fields), when the load got none", () => {
    const error = thrown(() => reconnectVectorStore(DIR, manifestWith(PG_RECORD), undefined));
    expect(error.code).toBe("VECTOR_STORE_REQUIRED");
    expect(error.message).toMatch(
      /^lookup-knowledge: the index in "\/srv\/kb-index" keeps L1 in a pgvector vector store \(schema "kb", table "lk_chunks"\); pass it to load as \{ vectorStore: \{ store, dialect \} \}/,
    );
  });

  it("names the recorded namespace when it is not the default one, and leaves the default one out", () => {
    const named = thrown(() =>
      reconnectVectorStore(DIR, manifestWith({ ...PG_RECORD, namespace: "handbook" }), undefined),
    );
    expect(named.message).toContain(
      'keeps L1 in a pgvector vector store (schema "kb", table "lk_chunks"), namespace "handbook"; pass it to load',
    );
    expect(thrown(() => reconnectVectorStore(DIR, manifestWith(PG_RECORD), undefined)).message).not.toContain(
      "namespace",
    );
  });

  it("adds the CLI flags for a pgvector record, with the recorded table when it is a plain identifier", () => {
    expect(thrown(() => reconnectVectorStore(DIR, manifestWith(PG_RECORD), undefined)).message).toContain(
      "--pgvector URL --pgvector-table lk_chunks",
    );
    const odd = record({ dialect: "pgvector", target: { schema: null, table: "lk chunks; drop", collection: null } });
    expect(thrown(() => reconnectVectorStore(DIR, manifestWith(odd), undefined)).message).toContain(
      "--pgvector-table NAME",
    );
    expect(thrown(() => reconnectVectorStore(DIR, manifestWith(MEMORY_RECORD), undefined)).message).not.toContain(
      "--pgvector",
    );
  });

  it("names a store without a target by its dialect alone", () => {
    const error = thrown(() => reconnectVectorStore(DIR, manifestWith(MEMORY_RECORD), undefined));
    expect(error.message).toContain("keeps L1 in a memory vector store; pass it to load");
  });

  it("refuses a store of another dialect, naming both", () => {
    const error = thrown(() =>
      reconnectVectorStore(DIR, manifestWith(PG_RECORD), {
        store: pgLikeStore({ schemaName: "kb" }),
        dialect: memoryDialect,
      }),
    );
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
    const error = thrown(() =>
      reconnectVectorStore(DIR, manifestWith(PG_RECORD), { store: pgLikeStore(fields), dialect: pgvectorDialect }),
    );
    expect(error.code).toBe("VECTOR_STORE_REQUIRED");
    expect(error.message).toContain(`but load got a pgvector store ${described}; connect to the recorded one.`);
  });

  it("refuses a dialect that now records a target where the index recorded none", () => {
    const error = thrown(() =>
      reconnectVectorStore(DIR, manifestWith(record({ dialect: "pgvector", target: {} })), {
        store: pgLikeStore(),
        dialect: pgvectorDialect,
      }),
    );
    expect(error.code).toBe("VECTOR_STORE_REQUIRED");
  });

  it("refuses a store given another namespace than the recorded one, naming both", () => {
    const error = thrown(() =>
      reconnectVectorStore(DIR, manifestWith({ ...MEMORY_RECORD, namespace: "handbook" }), {
        store: pgLikeStore(),
        dialect: memoryDialect,
        namespace: "runbooks",
      }),
    );
    expect(error.code).toBe("VECTOR_STORE_REQUIRED");
    expect(error.message).toBe(
      `lookup-knowledge: the index in "${DIR}" keeps L1 in a memory vector store, namespace "handbook", but load got a memory store, namespace "runbooks"; connect to the recorded one.`,
    );
  });

  it("refuses a named namespace for an index built in the default one, and the default one for an index built in a named one", () => {
    const named = thrown(() =>
      reconnectVectorStore(DIR, manifestWith(MEMORY_RECORD), {
        store: pgLikeStore(),
        dialect: memoryDialect,
        namespace: "handbook",
      }),
    );
    expect(named.code).toBe("VECTOR_STORE_REQUIRED");
    expect(named.message).toContain(
      'keeps L1 in a memory vector store, but load got a memory store, namespace "handbook"',
    );
    const byDefault = thrown(() =>
      reconnectVectorStore(DIR, manifestWith({ ...MEMORY_RECORD, namespace: "handbook" }), {
        store: pgLikeStore(),
        dialect: memoryDialect,
        namespace: "default",
      }),
    );
    expect(byDefault.code).toBe("VECTOR_STORE_REQUIRED");
    expect(byDefault.message).toContain(
      'namespace "handbook", but load got a memory store; connect to the recorded one.',
    );
  });

  it("takes the recorded namespace when the load names none", () => {
    const store = pgLikeStore();
    const part = reconnectVectorStore(DIR, manifestWith({ ...MEMORY_RECORD, namespace: "handbook" }), {
      store,
      dialect: memoryDialect,
    });
    expect(part?.namespace).toBe("handbook");
  });

  it("returns the store, dialect, namespace and checked target, with the manifest's generation and pending deletes", () => {
    const store = pgLikeStore({ schemaName: "kb" });
    const manifest = manifestWith({ ...PG_RECORD, namespace: "handbook", pendingDeletes: PENDING });
    const part = reconnectVectorStore(DIR, manifest, { store, dialect: pgvectorDialect, namespace: "handbook" });
    expect(part).toEqual({
      store,
      dialect: pgvectorDialect,
      namespace: "handbook",
      target: { schema: "kb", table: "lk_chunks", collection: null },
      generation: GENERATION,
      pendingDeletes: PENDING,
      keepGenerations: 1,
      revision: null,
      removed: [],
      committed: { generation: GENERATION, revision: null, retained: [] },
    });
    expect(part!.store).toBe(store);
    expect(part!.dialect).toBe(pgvectorDialect);
  });

  it("copies the pending deletes, so pruning after a save leaves the loaded manifest as it was", () => {
    const manifest = manifestWith({ ...MEMORY_RECORD, pendingDeletes: PENDING });
    const part = reconnectVectorStore(DIR, manifest, { store: pgLikeStore(), dialect: memoryDialect })!;
    expect(part.pendingDeletes).not.toBe(manifest.vectorStore!.pendingDeletes);
    part.pendingDeletes.length = 0;
    expect(manifest.vectorStore!.pendingDeletes).toEqual(PENDING);
  });

  it("matches a dialect without target against a record of an empty target", () => {
    const store = pgLikeStore();
    const part = reconnectVectorStore(DIR, manifestWith(MEMORY_RECORD), { store, dialect: memoryDialect });
    expect(part).toEqual({
      store,
      dialect: memoryDialect,
      namespace: "default",
      target: {},
      generation: GENERATION,
      pendingDeletes: [],
      keepGenerations: 1,
      revision: null,
      removed: [],
      committed: { generation: GENERATION, revision: null, retained: [] },
    });
  });

  it("attaches the dialect to the store it reconnects to", () => {
    const attached: unknown[] = [];
    const store = pgLikeStore();
    reconnectVectorStore(DIR, manifestWith(MEMORY_RECORD), {
      store,
      dialect: { ...memoryDialect, attach: (given) => void attached.push(given) },
    });
    expect(attached).toEqual([store]);
  });

  it("checks the option like a build does, with INVALID_OPTION for something that is not a store", () => {
    const option = { store: { invoke: async () => [] }, dialect: pgvectorDialect } as unknown as Parameters<
      typeof reconnectVectorStore
    >[2];
    const error = thrown(() => reconnectVectorStore(DIR, manifestWith(PG_RECORD), option));
    expect(error.code).toBe("INVALID_OPTION");
  });

  it.each<[string, Partial<VectorStoreDialect> & { namespace?: string }]>([
    ["a namespace that is not one", { namespace: "hand book" }],
    ["a dialect name the manifest could not hold", { name: "Memory Store" }],
    [
      "a dialect whose target() throws",
      {
        target: () => {
          throw new Error("store is closed");
        },
      },
    ],
    ["a dialect whose target() is too big to save", { target: () => ({ url: "u".repeat(1001) }) }],
  ])("fails with INVALID_OPTION, not VECTOR_STORE_REQUIRED, for %s", (_name, { namespace, ...fields }) => {
    const option = {
      store: pgLikeStore(),
      dialect: { ...memoryDialect, ...fields },
      ...(namespace === undefined ? {} : { namespace }),
    };
    expect(thrown(() => reconnectVectorStore(DIR, manifestWith(MEMORY_RECORD), option)).code).toBe("INVALID_OPTION");
  });
});
