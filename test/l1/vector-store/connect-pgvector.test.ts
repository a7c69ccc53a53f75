import { EventEmitter } from "node:events";
import { createServer } from "node:net";
import type { PoolClient } from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LookupKnowledgeError } from "../../../src/errors.js";
import { connectPgVectorStore, type PgVectorConnectOptions } from "../../../src/l1/vector-store/connect-pgvector.js";
import { pgvectorDialect } from "../../../src/l1/vector-store/pgvector-dialect.js";

/** A checked-out client as far as `PGVectorStore.end`, the dialect's attach and the table lookup touch it. */
class FakeClient extends EventEmitter {
  released = 0;
  /** What the lookup of the table's place answers: the schema its name resolves to, and where it would be created. */
  place: { resolved: string | null; creation: string | null } = { resolved: null, creation: "public" };
  release(): void {
    this.released++;
  }
  async query(): Promise<{ rows: { resolved: string | null; creation: string | null }[] }> {
    return { rows: [this.place] };
  }
}

/**
 * What the optional peer dependencies saw: which were imported, each pool made (its config, whether
 * it was ended), each store made (its config); and how the store's connect steps should go.
 */
const seen = vi.hoisted(() => ({
  imports: [] as string[],
  pools: [] as { config: Record<string, unknown>; pool: { ended: boolean; listenerCount(event: string): number } }[],
  stores: [] as { config: Record<string, unknown> }[],
  script: { client: null as unknown, table: "real" as "real" | "fails" | "exists", endHangs: false },
}));

vi.mock("pg", async (importOriginal) => {
  const real = await importOriginal<typeof import("pg")>();
  seen.imports.push("pg");
  class RecordedPool extends real.default.Pool {
    constructor(config: Record<string, unknown>) {
      super(config);
      seen.pools.push({ config, pool: this });
    }
  }
  return { ...real, default: { ...real.default, Pool: RecordedPool } };
});

vi.mock("@langchain/community/vectorstores/pgvector", async (importOriginal) => {
  seen.imports.push("@langchain/community/vectorstores/pgvector");
  const real = await importOriginal<typeof import("@langchain/community/vectorstores/pgvector")>();
  /** The real store, recording its config; with a scripted client it never connects, and its table step or end can be made to fail or hang. */
  class RecordedStore extends real.PGVectorStore {
    constructor(...args: ConstructorParameters<typeof real.PGVectorStore>) {
      super(...args);
      seen.stores.push({ config: args[1] as unknown as Record<string, unknown> });
    }
    override async _initializeClient(): Promise<void> {
      if (seen.script.client === null) return super._initializeClient();
      this.client = seen.script.client as PoolClient;
    }
    override async ensureTableInDatabase(dimensions?: number): Promise<void> {
      if (seen.script.table === "fails") throw new Error('permission denied to create extension "vector"');
      if (seen.script.table === "real") return super.ensureTableInDatabase(dimensions);
    }
    override async end(): Promise<void> {
      if (seen.script.endHangs) return new Promise<never>(() => {});
      return super.end();
    }
  }
  return { ...real, PGVectorStore: RecordedStore };
});

afterEach(() => {
  vi.useRealTimers();
  seen.imports.length = 0;
  seen.pools.length = 0;
  seen.stores.length = 0;
  seen.script = { client: null, table: "real", endHangs: false };
});

/** A local port nothing listens on: one the OS just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function rejection(promise: Promise<unknown>): Promise<LookupKnowledgeError> {
  return promise.then(
    () => expect.unreachable("connectPgVectorStore resolved"),
    (error: unknown) => {
      expect(error).toBeInstanceOf(LookupKnowledgeError);
      return error as LookupKnowledgeError;
    },
  );
}

/** Expects `options` to be refused with INVALID_OPTION and `message`, before pg is imported or a pool is made. */
async function expectRefusedBeforeConnecting(options: unknown, message: string): Promise<void> {
  const error = await rejection(connectPgVectorStore(options as PgVectorConnectOptions));
  expect(error.code).toBe("INVALID_OPTION");
  expect(error.message).toBe(`lookup-knowledge: ${message}`);
  expect(seen.imports).toEqual([]);
  expect(seen.pools).toEqual([]);
  expect(seen.stores).toEqual([]);
}

const URL = "postgresql://127.0.0.1:1/db";
const identifierMessage = (name: string, value: unknown) =>
  `${name} must be a plain SQL identifier (letters, digits, _; at most 63), got ${JSON.stringify(String(value).slice(0, 80))}.`;
const NOT_IDENTIFIERS = [
  "",
  "1chunks",
  "lk-chunks",
  "chunks; DROP TABLE users",
  "public.chunks",
  '"Chunks"',
  "a".repeat(64),
  "ümlaut",
  "chunks\n",
];

describe("connectPgVectorStore", () => {
  it.each<[string, unknown]>([
    ["no options", undefined],
    ["no connectionString", {}],
    ["an empty connectionString", { connectionString: "" }],
    ["a connectionString that is not a string", { connectionString: 5432 }],
  ])("refuses %s with INVALID_OPTION before importing pg or connecting", async (_name, options) => {
    await expectRefusedBeforeConnecting(
      options,
      "connectPgVectorStore needs a connectionString, e.g. postgresql://user:password@host:5432/db.",
    );
  });

  it.each<unknown>([...NOT_IDENTIFIERS, 5])(
    "refuses the tableName %j with INVALID_OPTION before importing pg or connecting",
    async (tableName) => {
      await expectRefusedBeforeConnecting(
        { connectionString: URL, tableName },
        identifierMessage("tableName", tableName),
      );
    },
  );

  it.each<unknown>([...NOT_IDENTIFIERS, 5])(
    "refuses the schemaName %j with INVALID_OPTION before importing pg or connecting",
    async (schemaName) => {
      await expectRefusedBeforeConnecting(
        { connectionString: URL, schemaName },
        identifierMessage("schemaName", schemaName),
      );
    },
  );

  it("refuses a schemaName that would break out of PGVectorStore's quoted identifier, before any import or connection", async () => {
    const schemaName = 'kb"."lk_rows"; DROP TABLE users; --';
    await expectRefusedBeforeConnecting(
      { connectionString: URL, schemaName },
      identifierMessage("schemaName", schemaName),
    );
  });

  it("quotes at most 80 characters of a refused name", async () => {
    const tableName = `${"x".repeat(79)}; ${"DROP TABLE users; ".repeat(20)}`;
    const error = await rejection(connectPgVectorStore({ connectionString: URL, tableName }));
    expect(error.message).toBe(
      `lookup-knowledge: tableName must be a plain SQL identifier (letters, digits, _; at most 63), got ${JSON.stringify(`${"x".repeat(79)};`)}.`,
    );
  });

  it.each<unknown>([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "4"])(
    "refuses maxConnections %j with INVALID_OPTION before importing pg or connecting",
    async (maxConnections) => {
      await expectRefusedBeforeConnecting(
        { connectionString: URL, maxConnections },
        `maxConnections must be an integer from 1, got ${String(maxConnections)}.`,
      );
    },
  );

  it.each<unknown>([-1, Number.NaN, Number.POSITIVE_INFINITY, "2000"])(
    "refuses connectionTimeoutMs %j with INVALID_OPTION before importing pg or connecting",
    async (connectionTimeoutMs) => {
      await expectRefusedBeforeConnecting(
        { connectionString: URL, connectionTimeoutMs },
        `connectionTimeoutMs must be a number of milliseconds from 0 (0 waits forever), got ${String(connectionTimeoutMs)}.`,
      );
    },
  );

  it("fails with VECTOR_STORE_FAILED naming the table when nothing listens at the address, and ends its pool", async () => {
    const port = await closedPort();
    const tableName = `_${"a".repeat(62)}`;
    const error = await rejection(
      connectPgVectorStore({
        connectionString: `postgresql://lk:secret@127.0.0.1:${port}/kb`,
        tableName,
        connectionTimeoutMs: 500,
      }),
    );
    expect(error.code).toBe("VECTOR_STORE_FAILED");
    expect(error.message).toMatch(
      new RegExp(
        `^lookup-knowledge: cannot open the pgvector table ${tableName}: .+; check the connection string and that the vector extension is installed \\(CREATE EXTENSION vector\\)\\.$`,
      ),
    );
    expect(error.message).not.toContain("secret");
    expect(error.cause).toBeInstanceOf(Error);
    expect(seen.imports).toEqual(["pg", "@langchain/community/vectorstores/pgvector"]);
    expect(seen.pools).toHaveLength(1);
    expect(seen.pools[0].config).toEqual({
      connectionString: `postgresql://lk:secret@127.0.0.1:${port}/kb`,
      max: 4,
      connectionTimeoutMillis: 500,
      onConnect: expect.any(Function),
    });
    expect(seen.pools[0].pool.ended).toBe(true);
    expect(seen.pools[0].pool.listenerCount("error")).toBeGreaterThan(0);
  });

  it("opens the default table with a pool of 4 connections and a 2 s connection timeout unless told otherwise", async () => {
    const port = await closedPort();
    const error = await rejection(connectPgVectorStore({ connectionString: `postgresql://127.0.0.1:${port}/kb` }));
    expect(error.code).toBe("VECTOR_STORE_FAILED");
    expect(error.message).toContain("cannot open the pgvector table lookup_knowledge_chunks:");
    expect(seen.pools[0].config).toEqual({
      connectionString: `postgresql://127.0.0.1:${port}/kb`,
      max: 4,
      connectionTimeoutMillis: 2000,
      onConnect: expect.any(Function),
    });

    await rejection(
      connectPgVectorStore({
        connectionString: `postgresql://127.0.0.1:${port}/kb`,
        maxConnections: 9,
        connectionTimeoutMs: 0,
      }),
    );
    expect(seen.pools[1].config).toMatchObject({ max: 9, connectionTimeoutMillis: 0 });
  });

  it("gives the store its pool, the table, cosine distance and the schema only when one is named", async () => {
    const port = await closedPort();
    await rejection(
      connectPgVectorStore({
        connectionString: `postgresql://127.0.0.1:${port}/kb`,
        tableName: "kb_rows",
        schemaName: "knowledge",
      }),
    );
    await rejection(connectPgVectorStore({ connectionString: `postgresql://127.0.0.1:${port}/kb` }));
    expect(seen.stores).toHaveLength(2);
    expect(seen.stores[0].config).toEqual({
      pool: seen.pools[0].pool,
      tableName: "kb_rows",
      schemaName: "knowledge",
      distanceStrategy: "cosine",
    });
    expect(seen.stores[1].config).toEqual({
      pool: seen.pools[1].pool,
      tableName: "lookup_knowledge_chunks",
      distanceStrategy: "cosine",
    });
  });

  it("releases the checked-out client and ends the pool when creating the table fails, guarding the client against errors meanwhile", async () => {
    const client = new FakeClient();
    seen.script = { ...seen.script, client, table: "fails" };
    const error = await rejection(connectPgVectorStore({ connectionString: URL, tableName: "kb_rows" }));
    expect(error.code).toBe("VECTOR_STORE_FAILED");
    expect(error.message).toBe(
      'lookup-knowledge: cannot open the pgvector table kb_rows: permission denied to create extension "vector"; check the connection string and that the vector extension is installed (CREATE EXTENSION vector).',
    );
    expect(client.released).toBe(1);
    expect(client.listenerCount("error")).toBe(1);
    expect(seen.pools[0].pool.ended).toBe(true);
  });

  it("gives up waiting for a store whose end hangs after 2 s, and still fails with VECTOR_STORE_FAILED", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    seen.script = { client: new FakeClient(), table: "fails", endHangs: true };
    let settled = false;
    const pending = rejection(connectPgVectorStore({ connectionString: URL })).finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(1990);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(20);
    const error = await pending;
    expect(error.code).toBe("VECTOR_STORE_FAILED");
    expect(error.message).toContain('permission denied to create extension "vector"');
  });

  it("refuses a table name that resolves to a relation in another schema than the one it would be created in, before creating it", async () => {
    const client = new FakeClient();
    client.place = { resolved: "pg_catalog", creation: "public" };
    seen.script = { ...seen.script, client, table: "fails" };
    const error = await rejection(connectPgVectorStore({ connectionString: URL, tableName: "pg_class" }));
    expect(error.code).toBe("INVALID_OPTION");
    expect(error.message).toBe(
      "lookup-knowledge: the pgvector table name pg_class resolves to pg_catalog.pg_class, not to a table in public, where lookup-knowledge would create it; choose another table name (CLI --pgvector-table), or name the schema (schemaName).",
    );
    expect(client.released).toBe(1);
    expect(seen.pools[0].pool.ended).toBe(true);
  });

  it("returns the store with the pgvector dialect once the client is connected and the table exists, and its end releases both", async () => {
    const client = new FakeClient();
    client.place = { resolved: "knowledge", creation: "knowledge" };
    seen.script = { ...seen.script, client, table: "exists" };
    const { store, dialect } = await connectPgVectorStore({
      connectionString: URL,
      tableName: "kb_rows",
      schemaName: "knowledge",
      createIndexes: false,
    });
    expect(dialect).toBe(pgvectorDialect);
    expect(dialect.target!(store)).toEqual({ schema: "knowledge", table: "kb_rows", collection: null });
    expect(client.listenerCount("error")).toBe(1);
    expect(seen.pools[0].pool.listenerCount("error")).toBeGreaterThan(0);
    expect(client.released).toBe(0);
    await store.end();
    expect(client.released).toBe(1);
    expect(seen.pools[0].pool.ended).toBe(true);
  });
});
