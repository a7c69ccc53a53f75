import { afterAll, describe, expect, it } from "vitest";
import { connectPgVectorStore, type PgVectorConnection } from "../../../src/index.js";
import { pgSql } from "../../helpers/pg-sql.js";

const url = process.env.LOOKUP_KNOWLEDGE_PG_URL;

const { query: sql, tablesNamed, indexNames: indexesOf } = pgSql(url ?? "");

describe.skipIf(!url)("what a pgvector connection created, and dropping it (LOOKUP_KNOWLEDGE_PG_URL)", () => {
  const tables: string[] = [];
  const connections: PgVectorConnection[] = [];
  const fresh = async (name: string) => {
    const table = `lk_made_${name}_${process.pid}`;
    tables.push(table);
    await sql(`DROP TABLE IF EXISTS ${table}`);
    return table;
  };
  const connect = async (tableName: string) => {
    const connection = await connectPgVectorStore({ connectionString: url!, tableName });
    connections.push(connection);
    return connection;
  };
  afterAll(async () => {
    for (const connection of connections) await connection.store.end().catch(() => {});
    for (const table of tables) await sql(`DROP TABLE IF EXISTS ${table}`);
  });

  it("drops the table it created, with its indexes", async () => {
    const table = await fresh("new");
    const connection = await connect(table);
    expect(await tablesNamed(table)).toEqual(["public"]);
    expect(await connection.dropCreated()).toEqual([`"public"."${table}"`]);
    expect(await tablesNamed(table)).toEqual([]);
  });

  it("never drops a table that existed before, only the index it added to it", async () => {
    const table = await fresh("old");
    await sql("CREATE EXTENSION IF NOT EXISTS vector");
    await sql(`CREATE TABLE ${table} (id uuid PRIMARY KEY, text text, metadata jsonb, embedding vector)`);
    const connection = await connect(table);
    expect(await indexesOf(table)).toEqual([`${table}_lk_scope`, `${table}_pkey`]);
    expect(await connection.dropCreated()).toEqual([`"public"."${table}_lk_scope"`]);
    expect(await tablesNamed(table)).toEqual(["public"]);
    expect(await indexesOf(table)).toEqual([`${table}_pkey`]);
  });

  it("drops nothing once told to keep what it created", async () => {
    const table = await fresh("kept");
    const connection = await connect(table);
    connection.keepCreated();
    expect(await connection.dropCreated()).toEqual([]);
    expect(await tablesNamed(table)).toEqual(["public"]);
  });

  it("refuses a table name that resolves to a system catalog, creating nothing", async () => {
    await sql("DROP TABLE IF EXISTS public.pg_class");
    await expect(connectPgVectorStore({ connectionString: url!, tableName: "pg_class" })).rejects.toMatchObject({
      code: "INVALID_OPTION",
      message: expect.stringContaining("pg_class resolves to pg_catalog.pg_class"),
    });
    expect(await tablesNamed("pg_class")).toEqual(["pg_catalog"]);
  });
});
