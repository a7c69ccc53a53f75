import { createServer } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LookupKnowledgeError } from "../../../src/errors.js";
import { connectPgVectorStore, type PgVectorConnectOptions } from "../../../src/l1/vector-store/connect-pgvector.js";

/** What the optional peer dependencies saw: which were imported, and each pool made (its config, whether it was ended). */
const seen = vi.hoisted(() => ({ imports: [] as string[], pools: [] as { config: Record<string, unknown>; pool: { ended: boolean; listenerCount(event: string): number } }[] }));

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
  return importOriginal();
});

afterEach(() => {
  seen.imports.length = 0;
  seen.pools.length = 0;
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

describe("connectPgVectorStore", () => {
  it.each<[string, unknown]>([
    ["no options", undefined],
    ["no connectionString", {}],
    ["an empty connectionString", { connectionString: "" }],
    ["a connectionString that is not a string", { connectionString: 5432 }],
  ])("refuses %s with INVALID_OPTION before importing pg or connecting", async (_name, options) => {
    const error = await rejection(connectPgVectorStore(options as PgVectorConnectOptions));
    expect(error.code).toBe("INVALID_OPTION");
    expect(error.message).toBe("lookup-knowledge: connectPgVectorStore needs a connectionString, e.g. postgresql://user:password@host:5432/db.");
    expect(seen.imports).toEqual([]);
    expect(seen.pools).toEqual([]);
  });

  it.each(["", "1chunks", "lk-chunks", "chunks; DROP TABLE users", "public.chunks", '"Chunks"', "a".repeat(64), "ümlaut"])(
    "refuses the tableName %j with INVALID_OPTION before importing pg or connecting",
    async (tableName) => {
      const error = await rejection(connectPgVectorStore({ connectionString: "postgresql://127.0.0.1:1/db", tableName }));
      expect(error.code).toBe("INVALID_OPTION");
      expect(error.message).toBe(`lookup-knowledge: tableName must be a plain SQL identifier (letters, digits, _), got ${JSON.stringify(tableName)}.`);
      expect(seen.imports).toEqual([]);
      expect(seen.pools).toEqual([]);
    },
  );

  it("fails with VECTOR_STORE_FAILED naming the table when nothing listens at the address, and ends its pool", async () => {
    const port = await closedPort();
    const tableName = `_${"a".repeat(62)}`;
    const error = await rejection(connectPgVectorStore({ connectionString: `postgresql://lk:secret@127.0.0.1:${port}/kb`, tableName, connectionTimeoutMs: 500 }));
    expect(error.code).toBe("VECTOR_STORE_FAILED");
    expect(error.message).toMatch(new RegExp(`^lookup-knowledge: cannot open the pgvector table ${tableName}: .+; check the connection string and that the vector extension is installed \\(CREATE EXTENSION vector\\)\\.$`));
    expect(error.message).not.toContain("secret");
    expect(error.cause).toBeInstanceOf(Error);
    expect(seen.imports).toEqual(["pg", "@langchain/community/vectorstores/pgvector"]);
    expect(seen.pools).toHaveLength(1);
    expect(seen.pools[0].config).toEqual({ connectionString: `postgresql://lk:secret@127.0.0.1:${port}/kb`, max: 4, connectionTimeoutMillis: 500 });
    expect(seen.pools[0].pool.ended).toBe(true);
    expect(seen.pools[0].pool.listenerCount("error")).toBeGreaterThan(0);
  });

  it("opens the default table with a pool of 4 connections and a 2 s connection timeout unless told otherwise", async () => {
    const port = await closedPort();
    const error = await rejection(connectPgVectorStore({ connectionString: `postgresql://127.0.0.1:${port}/kb` }));
    expect(error.code).toBe("VECTOR_STORE_FAILED");
    expect(error.message).toContain("cannot open the pgvector table lookup_knowledge_chunks:");
    expect(seen.pools[0].config).toEqual({ connectionString: `postgresql://127.0.0.1:${port}/kb`, max: 4, connectionTimeoutMillis: 2000 });

    await rejection(connectPgVectorStore({ connectionString: `postgresql://127.0.0.1:${port}/kb`, maxConnections: 9, connectionTimeoutMs: 300 }));
    expect(seen.pools[1].config).toMatchObject({ max: 9, connectionTimeoutMillis: 300 });
  });
});
