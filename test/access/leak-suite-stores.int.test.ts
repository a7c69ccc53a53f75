/**
 * The access leak scenarios of leak-scenarios.ts with L1 in a LangChain vector store:
 * MemoryVectorStore, and PGVectorStore on real Postgres (the one CI started, else PGlite started
 * here). leak-suite.int.test.ts runs them with the in-process HNSW graph.
 */
import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import { PGVectorStore } from "@langchain/community/vectorstores/pgvector";
import { FakeEmbeddings } from "@langchain/core/utils/testing";
import pg from "pg";
import { memoryDialect, pgvectorDialect } from "../../src/index.js";
import { testPostgres } from "../helpers/pglite-server.js";
import { describeLeakSuite } from "./leak-scenarios.js";

describeLeakSuite({
  name: "LangChain's MemoryVectorStore",
  async open() {
    // The store's own embeddings are never called: lookup-knowledge embeds and writes vectors.
    const store = new MemoryVectorStore(new FakeEmbeddings());
    return { vectorStore: (namespace) => ({ store, dialect: memoryDialect, namespace }), close: async () => {} };
  },
});

describeLeakSuite({
  name: "PGVectorStore on Postgres",
  async open() {
    const postgres = await testPostgres();
    const pool = new pg.Pool({
      connectionString: postgres.url,
      max: 4,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 1000,
    });
    pool.on("error", () => {});
    const tableName = `lk_leak_${process.pid}_${Date.now().toString(36)}`;
    const store = await PGVectorStore.initialize(new FakeEmbeddings(), { pool, tableName, distanceStrategy: "cosine" });
    return {
      vectorStore: (namespace) => ({ store, dialect: pgvectorDialect, namespace }),
      async close() {
        await pool.query(`DROP TABLE IF EXISTS ${tableName}`);
        await store.end();
        await postgres.stop();
      },
    };
  },
});
