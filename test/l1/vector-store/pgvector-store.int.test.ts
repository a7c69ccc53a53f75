import { PGVectorStore } from "@langchain/community/vectorstores/pgvector";
import { FakeEmbeddings } from "@langchain/core/utils/testing";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLookupKnowledgeTool,
  KnowledgeBase,
  pgvectorDialect,
  type LookupResult,
  type ToolInvocationRecord,
} from "../../../src/index.js";
import { startPgServer, testPostgres, type PgServer } from "../../helpers/pglite-server.js";
import { createTempDirs, KB_DIR, readJsonl } from "../../integration/helpers/integration-fixtures.js";
import { describeStoreBackedL1 } from "./store-scenarios.js";

/** A pool as a production app would make it: bounded waits, and idle-client errors handled (a dropped connection must not crash the app). */
function poolFor(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 2000, idleTimeoutMillis: 1000 });
  pool.on("error", () => {});
  return pool;
}

let postgres: PgServer;
beforeAll(async () => {
  postgres = await testPostgres();
});
afterAll(async () => {
  await postgres?.stop();
});

describeStoreBackedL1("Postgres with pgvector (PGVectorStore over the wire protocol)", async (table) => {
  const pool = poolFor(postgres.url);
  const tableName = `${table}_${process.pid}`;
  await pool.query(`DROP TABLE IF EXISTS ${tableName}`);
  // The store's own embeddings are never called: lookup-knowledge embeds, and writes vectors.
  const store = await PGVectorStore.initialize(new FakeEmbeddings(), { pool, tableName, distanceStrategy: "cosine" });
  return {
    store,
    dialect: pgvectorDialect,
    rowIds: async () =>
      (await pool.query<{ id: string }>(`SELECT metadata->>'lk_id' AS id FROM ${tableName}`)).rows
        .map((row) => row.id)
        .sort(),
    close: async () => {
      await pool.query(`DROP TABLE IF EXISTS ${tableName}`);
      await store.end(); // releases the client the store keeps checked out, then ends the pool
    },
  };
});

describe("L1 on pgvector when the database goes away", () => {
  const temp = createTempDirs();
  let server: PgServer;
  let store: PGVectorStore;
  let kb: KnowledgeBase;

  beforeAll(async () => {
    server = await startPgServer();
    // No error listeners of the app's own: the dialect's keep the dropped connection from crashing the process.
    const pool = new pg.Pool({ connectionString: server.url, max: 4, connectionTimeoutMillis: 2000 });
    store = await PGVectorStore.initialize(new FakeEmbeddings(), { pool, tableName: "lk_chunks_outage" });
    kb = await KnowledgeBase.build({
      corpusDir: KB_DIR,
      vectorStore: { store, dialect: pgvectorDialect },
      onWarning: () => {},
    });
  });
  afterAll(async () => {
    await store?.end().catch(() => {});
    await temp.cleanup();
  });

  it("answers from L0, with the database error in the trace, once the server has stopped", async () => {
    const tracePath = join(await temp.make(), "trace.jsonl");
    const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath, l1: { timeoutMs: 3000 } });
    const query = "how do I rotate an API key";
    const before = (await lookup.invoke({ type: "tool_call", id: "up", name: lookup.name, args: { query } }))
      .artifact as LookupResult;
    expect(before.l1Status).toBe("ok");
    await server.stop();
    const after = (await lookup.invoke({ type: "tool_call", id: "down", name: lookup.name, args: { query } }))
      .artifact as LookupResult;
    expect(after.l1Status).toBe("error");
    expect(after.fallbackReason).toBe("l1_error");
    expect(after.primary?.source).toMatch(/^access\/api-key-rotation\.md#/);
    await lookup.close();
    const lines = (await readJsonl(tracePath)) as ToolInvocationRecord[];
    expect(lines.map((line) => line.retrieval_details?.l1.status)).toEqual(["ok", "error"]);
    expect(lines[1].retrieval_details?.l1.error).toMatch(/pgvector vector store (failed|did not answer)/);
  });
});
