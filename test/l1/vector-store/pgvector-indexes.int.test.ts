import { cp } from "node:fs/promises";
import type pg from "pg";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { connectPgVectorStore, KnowledgeBase, type PgVectorConnection } from "../../../src/index.js";
import { AT_LEAST_0_8 } from "../../../src/l1/vector-store/pgvector-schema.js";
import { HashedWordEmbeddings } from "../../access/hashed-embeddings.js";
import { createTempDirs, KB_DIR } from "../../integration/helpers/integration-fixtures.js";
import { pgSql } from "../../helpers/pg-sql.js";

const url = process.env.LOOKUP_KNOWLEDGE_PG_URL;

const { query: sql } = pgSql(url ?? "");

/** The table's index definitions, but its primary key's. */
const indexesOf = async (table: string) =>
  (
    await sql<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE tablename = $1 AND indexname NOT LIKE '%_pkey' ORDER BY indexname",
      [table],
    )
  ).map((row) => row.indexdef);
const columnType = async (table: string) =>
  (
    await sql<{ type: string }>(
      "SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = 'embedding'",
      [table],
    )
  )[0]?.type;

describe.skipIf(!url)("the pgvector table's indexes (LOOKUP_KNOWLEDGE_PG_URL)", () => {
  const temp = createTempDirs("lookup-knowledge-pg-indexes-");
  const tables: string[] = [];
  const connections: PgVectorConnection[] = [];
  /** A fresh table name, dropped at the end. */
  const fresh = async (name: string) => {
    const table = `lk_idx_${name}_${process.pid}`;
    tables.push(table);
    await sql(`DROP TABLE IF EXISTS ${table}`);
    return table;
  };
  const connect = async (options: Omit<Parameters<typeof connectPgVectorStore>[0], "connectionString">) => {
    const connection = await connectPgVectorStore({ connectionString: url!, ...options });
    connections.push(connection);
    return connection;
  };
  afterAll(async () => {
    for (const connection of connections) await connection.store.end().catch(() => {});
    for (const table of tables) await sql(`DROP TABLE IF EXISTS ${table}`);
    await temp.cleanup();
  });
  const corpus = async () => {
    const dir = join(await temp.make(), "kb");
    await cp(KB_DIR, dir, { recursive: true });
    return dir;
  };

  it("creates the vector(n) column, the HNSW index and the scope index when a build first writes rows", async () => {
    const table = await fresh("build");
    const vectorStore = await connect({ tableName: table });
    expect(await columnType(table)).toBe("vector");
    const kb = await KnowledgeBase.build({
      corpusDir: await corpus(),
      vectorStore,
      embeddings: new HashedWordEmbeddings(48),
      onWarning: () => {},
    });
    const dimensions = kb.settings.embedder.dimensions!;
    expect(dimensions).toBe(48);
    expect(await columnType(table)).toBe(`vector(${dimensions})`);
    const indexes = await indexesOf(table);
    expect(indexes).toHaveLength(2);
    expect(indexes.find((def) => def.includes("USING hnsw"))).toMatch(/USING hnsw \(embedding vector_cosine_ops\)/);
    expect(indexes.find((def) => def.includes("USING btree"))).toMatch(
      /\(\(metadata ->> 'lk_kb'::text\)\), \(\(metadata ->> 'lk_gen'::text\)\), \(\(metadata ->> 'domain'::text\)\), \(\(metadata ->> 'lk_acl'::text\)\)/,
    );
    // Lookups still answer from the store, now through the index.
    expect(
      (await kb.l1!.search("who approves refunds above 500 euros", { domain: "billing", k: 3, minScore: -1 }))[0].chunk
        .source,
    ).toMatch(/^billing\/refunds\.md#/);
    // A second connection finds everything there: no error, nothing new.
    await connect({ tableName: table, dimensions });
    expect(await indexesOf(table)).toEqual(indexes);
  });

  it("leaves the column untyped while the default embedder's length still follows the corpus, with the scope index made", async () => {
    const table = await fresh("small");
    const vectorStore = await connect({ tableName: table });
    const kb = await KnowledgeBase.build({ corpusDir: await corpus(), vectorStore, onWarning: () => {} });
    expect(kb.settings.embedder.dimensions).toBeLessThan(256);
    expect(await columnType(table)).toBe("vector");
    expect((await indexesOf(table)).map((def) => /USING (\w+)/.exec(def)?.[1])).toEqual(["btree"]);
  });

  it("creates them at connect when the dimensions are given", async () => {
    const table = await fresh("dims");
    await connect({ tableName: table, dimensions: 12 });
    expect(await columnType(table)).toBe("vector(12)");
    expect((await indexesOf(table)).map((def) => /USING (\w+)/.exec(def)?.[1]).sort()).toEqual(["btree", "hnsw"]);
  });

  it("creates no index and leaves the column untyped with createIndexes: false", async () => {
    const table = await fresh("off");
    const vectorStore = await connect({ tableName: table, createIndexes: false });
    await KnowledgeBase.build({ corpusDir: await corpus(), vectorStore, onWarning: () => {} });
    expect(await indexesOf(table)).toEqual([]);
    expect(await columnType(table)).toBe("vector");
  });

  it("refuses a table of vectors of another length with VECTOR_STORE_FAILED naming the table and the fix", async () => {
    const table = await fresh("other");
    await connect({ tableName: table, dimensions: 12 });
    await expect(
      connectPgVectorStore({ connectionString: url!, tableName: table, dimensions: 16 }),
    ).rejects.toMatchObject({
      code: "VECTOR_STORE_FAILED",
      message: `lookup-knowledge: the pgvector table ${table} holds vectors of 12 dimensions, but the embeddings give 16; use another table (tableName, CLI --pgvector-table) for these embeddings, or connect with createIndexes: false to keep the column untyped (no HNSW index).`,
    });
  });

  it("turns a failing DDL statement into one VECTOR_STORE_FAILED naming the table, the step and createIndexes: false", async () => {
    const table = await fresh("broken");
    await sql(`CREATE TABLE ${table} (id uuid PRIMARY KEY, content text, metadata jsonb, embedding text)`);
    const error = await connectPgVectorStore({ connectionString: url!, tableName: table, dimensions: 8 }).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ code: "VECTOR_STORE_FAILED" });
    expect((error as Error).message).toMatch(
      new RegExp(
        `^lookup-knowledge: cannot give the embedding column the type vector\\(8\\) of the pgvector table ${table}: .+; grant the role CREATE .+ createIndexes: false \\(CLI: --no-pgvector-indexes\\)\\.$`,
      ),
    );
  });

  it("sets hnsw.iterative_scan to relaxed_order in its sessions on pgvector 0.8 and later, and connects either way", async () => {
    const table = await fresh("scan");
    // PGlite's server runs every connection in one session, so this checks the setting, not which sessions have it.
    const { store } = await connect({ tableName: table });
    const [{ version }] = await sql<{ version: string }>(
      "SELECT extversion AS version FROM pg_extension WHERE extname = 'vector'",
    );
    const [major, minor] = version.split(".").map(Number);
    const pool = (store as unknown as { pool: pg.Pool }).pool;
    const settings = await Promise.all(
      [0, 1, 2].map(
        async () =>
          (await pool.query<{ value: string | null }>("SELECT current_setting('hnsw.iterative_scan', true) AS value"))
            .rows[0].value,
      ),
    );
    const expected = major > 0 || minor >= 8 ? "relaxed_order" : expect.not.stringMatching(/relaxed_order/);
    for (const value of settings) expect(value ?? "").toEqual(expected);
  });

  it.each([
    ["0.5.1", false],
    ["0.7.4", false],
    ["0.8.0", true],
    ["0.8.1", true],
    ["0.10.0", true],
    ["1.0.0-dev", true],
  ])("gates the setting on the server's pgvector version: %s is %s", async (version, atLeast) => {
    const [{ result }] = await sql<{ result: boolean }>(
      `SELECT ${AT_LEAST_0_8} AS result FROM (SELECT $1::text AS extversion) AS v`,
      [version],
    );
    expect(result).toBe(atLeast);
  });
});
