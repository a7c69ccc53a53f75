import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPostgres, type PgServer } from "../helpers/pglite-server.js";
import { pgSql } from "../helpers/pg-sql.js";
import { runCli, type CliRun } from "../helpers/run-cli.js";
import { createTempDirs, KB_DIR } from "../integration/helpers/integration-fixtures.js";

const CLI_TIMEOUT = 120_000;

/** One bounded line on stderr, no stack, exit code 1. */
function expectOneLineFailure(run: CliRun): void {
  expect(run.code).toBe(1);
  expect(run.stderr.trim().split("\n")).toHaveLength(1);
  expect(run.stderr.length).toBeLessThanOrEqual(1001);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stderr).not.toContain("postgres:postgres@");
}

describe("the index command's pgvector failures", () => {
  const temp = createTempDirs("lk-cli-pgvector-errors-");
  let postgres: PgServer;
  let dir: string;
  const tables: string[] = [];

  const { query: sql, tablesNamed, indexNames: indexesOf } = pgSql(() => postgres.url);
  const index = (table: string, out = join(dir, `index-${table}`)) =>
    runCli(["index", "--corpus", KB_DIR, "--out", out, "--pgvector", postgres.url, "--pgvector-table", table]);

  beforeAll(async () => {
    postgres = await testPostgres();
    dir = await temp.make();
  });
  afterAll(async () => {
    if (postgres) {
      for (const table of tables) await sql(`DROP TABLE IF EXISTS ${table}`);
      await postgres.stop();
    }
    await temp.cleanup();
  });

  it(
    "refuses a table name that resolves to a system catalog in one line, leaving no table behind",
    async () => {
      await sql("DROP TABLE IF EXISTS public.pg_class");
      const run = await index("pg_class");
      expectOneLineFailure(run);
      expect(run.stderr).toContain("the pgvector table name pg_class resolves to pg_catalog.pg_class");
      expect(await tablesNamed("pg_class")).toEqual(["pg_catalog"]);
    },
    CLI_TIMEOUT,
  );

  it(
    "reports a failed insert in one line without LangChain's printed stack, keeping a table that existed before but not the index it added",
    async () => {
      const table = `lk_cli_old_${process.pid}`;
      tables.push(table);
      await sql("CREATE EXTENSION IF NOT EXISTS vector");
      await sql(`DROP TABLE IF EXISTS ${table}`);
      // No "text" column: PGVectorStore's insert fails, and it hands the pg error to console.error first.
      await sql(`CREATE TABLE ${table} (id uuid PRIMARY KEY, metadata jsonb, embedding vector)`);
      const run = await index(table);
      expectOneLineFailure(run);
      expect(run.stderr).toContain(`column "text" of relation "${table}" does not exist`);
      expect(run.stderr).not.toContain("routine:");
      expect(await tablesNamed(table)).toEqual(["public"]);
      expect(await indexesOf(table)).toEqual([`${table}_pkey`]);
    },
    CLI_TIMEOUT,
  );

  it(
    "drops the table it created when the first build fails",
    async () => {
      const table = `lk_cli_new_${process.pid}`;
      tables.push(table);
      await sql(`DROP TABLE IF EXISTS ${table}`);
      const file = join(dir, "a-file");
      await writeFile(file, "not a folder\n");
      const run = await index(table, join(file, "index"));
      expectOneLineFailure(run);
      expect(run.stderr).toContain("cannot take the writer lock");
      expect(await tablesNamed(table)).toEqual([]);
    },
    CLI_TIMEOUT,
  );

  it(
    "keeps the table of a build that succeeded",
    async () => {
      const table = `lk_cli_ok_${process.pid}`;
      tables.push(table);
      await sql(`DROP TABLE IF EXISTS ${table}`);
      const run = await index(table);
      expect(run.code).toBe(0);
      expect(await tablesNamed(table)).toEqual(["public"]);
    },
    CLI_TIMEOUT,
  );
});
