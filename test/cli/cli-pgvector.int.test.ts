import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IndexManifest, LookupResult } from "../../src/index.js";
import { testPostgres, type PgServer } from "../helpers/pglite-server.js";
import { createTempDirs, KB_DIR } from "../integration/helpers/integration-fixtures.js";
import { runCli } from "../helpers/run-cli.js";

const CLI_TIMEOUT = 120_000;

describe("the CLI with L1 in Postgres/pgvector", () => {
  const temp = createTempDirs();
  let postgres: PgServer;
  let corpus: string;
  let index: string;
  const table = `lk_cli_${process.pid}`;

  beforeAll(async () => {
    postgres = await testPostgres();
    const dir = await temp.make();
    corpus = join(dir, "kb");
    index = join(dir, "index");
    await cp(KB_DIR, corpus, { recursive: true });
  });
  afterAll(async () => {
    await postgres?.stop();
    await temp.cleanup();
  });

  it(
    "indexes into a pgvector table, records it without the URL, and answers queries from it",
    async () => {
      const built = await runCli([
        "index",
        "--corpus",
        corpus,
        "--out",
        index,
        "--pgvector",
        postgres.url,
        "--pgvector-table",
        table,
      ]);
      expect(built.stderr).toContain("L1 rows in pgvector");
      expect(built.code).toBe(0);
      const manifestText = await readFile(join(index, "manifest.json"), "utf8");
      expect((JSON.parse(manifestText) as IndexManifest).vectorStore).toEqual({
        dialect: "pgvector",
        target: { schema: null, table, collection: null },
        namespace: "default",
        generation: expect.stringMatching(/^[0-9a-f]{16}$/),
        revision: 0,
        pendingDeletes: [],
      });
      expect(manifestText).not.toContain("postgres:postgres@");

      const answered = await runCli(
        ["query", "who approves a large refund", "--index", index, "--corpus", corpus, "--no-trace", "--json"],
        { env: { LOOKUP_KNOWLEDGE_PGVECTOR_URL: postgres.url } },
      );
      expect(answered.code).toBe(1); // the table flag is missing: the default table is not the recorded one
      expect(answered.stderr).toContain(`table "${table}"`);

      const right = await runCli(
        [
          "query",
          "who approves a large refund",
          "--index",
          index,
          "--corpus",
          corpus,
          "--no-trace",
          "--json",
          "--pgvector-table",
          table,
        ],
        { env: { LOOKUP_KNOWLEDGE_PGVECTOR_URL: postgres.url } },
      );
      expect(right.code).toBe(0);
      const result = JSON.parse(right.stdout) as LookupResult;
      expect(result.l1Status).toBe("ok");
      expect(result.primary?.source).toMatch(/^billing\/refunds\.md#/);
    },
    CLI_TIMEOUT,
  );

  it(
    "creates the table's scope index unless told --no-pgvector-indexes (the HNSW index waits for the default embedder's full length)",
    async () => {
      const indexesOf = async (name: string) => {
        const pool = new pg.Pool({ connectionString: postgres.url, max: 1 });
        try {
          return (
            await pool.query<{ indexdef: string }>(
              "SELECT indexdef FROM pg_indexes WHERE tablename = $1 AND indexname NOT LIKE '%_pkey'",
              [name],
            )
          ).rows.map((row) => row.indexdef);
        } finally {
          await pool.end();
        }
      };
      expect((await indexesOf(table)).map((def) => /USING (\w+)/.exec(def)?.[1])).toEqual(["btree"]);
      const bare = `${table}_bare`;
      const built = await runCli([
        "index",
        "--corpus",
        corpus,
        "--out",
        join(await temp.make(), "index"),
        "--pgvector",
        postgres.url,
        "--pgvector-table",
        bare,
        "--no-pgvector-indexes",
      ]);
      expect(built.code).toBe(0);
      expect(await indexesOf(bare)).toEqual([]);
    },
    CLI_TIMEOUT,
  );

  it(
    "refuses a store-backed index without --pgvector, saying which flag and table to pass",
    async () => {
      const run = await runCli(["query", "refund", "--index", index, "--corpus", corpus, "--no-trace"]);
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toContain(`--pgvector URL --pgvector-table ${table}`);
    },
    CLI_TIMEOUT,
  );

  it(
    "refuses to update a store-backed index without --pgvector instead of rebuilding it into a local graph",
    async () => {
      const before = await readFile(join(index, "manifest.json"), "utf8");
      const run = await runCli(["index", "--corpus", corpus, "--out", index]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("keeps L1 in a pgvector vector store");
      expect(await readFile(join(index, "manifest.json"), "utf8")).toBe(before);
    },
    CLI_TIMEOUT,
  );

  it(
    "reports an unreachable database in one line with exit code 1",
    async () => {
      const run = await runCli([
        "query",
        "refund",
        "--index",
        index,
        "--corpus",
        corpus,
        "--no-trace",
        "--pgvector",
        "postgresql://postgres:postgres@127.0.0.1:1/postgres",
        "--pgvector-table",
        table,
      ]);
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toContain("cannot open the pgvector table");
      expect(run.stderr).not.toContain("postgres:postgres@");
    },
    CLI_TIMEOUT,
  );

  it(
    "builds an index from JSONL documents into a pgvector table, syncs an edit into it, and answers from it",
    async () => {
      const dir = await temp.make();
      const file = join(dir, "docs.jsonl");
      const out = join(dir, "index");
      const docsTable = `${table}_docs`;
      const doc = (source: string, pageContent: string) => JSON.stringify({ pageContent, metadata: { source } });
      const flags = ["--out", out, "--documents", file, "--pgvector", postgres.url, "--pgvector-table", docsTable];
      await writeFile(
        file,
        [
          doc("refunds.txt", "Refunds over 5000 dollars need Priya's approval."),
          doc("keys.txt", "Rotate API keys every 90 days."),
        ].join("\n"),
      );
      const built = await runCli(["index", ...flags]);
      expect(built.code).toBe(0);
      expect(built.stderr).toContain("L1 rows in pgvector");

      await writeFile(
        file,
        [
          doc("refunds.txt", "Refunds over 5000 dollars need Omar's approval."),
          doc("keys.txt", "Rotate API keys every 90 days."),
        ].join("\n"),
      );
      const synced = await runCli(["index", ...flags]);
      expect(synced.code).toBe(0);
      expect(synced.stderr).toContain("documents 0 added, 1 updated, 1 skipped (unchanged), 0 deleted");
      expect(synced.stderr).toMatch(/store rows [1-9]\d* written/);

      const answered = await runCli(
        ["query", "who approves a refund", "--index", out, "--no-trace", "--json", "--pgvector-table", docsTable],
        { env: { LOOKUP_KNOWLEDGE_PGVECTOR_URL: postgres.url }, cwd: dir },
      );
      expect(answered.code).toBe(0);
      const result = JSON.parse(answered.stdout) as LookupResult;
      expect(result.l1Status).toBe("ok");
      expect(result.primary?.content).toContain("Omar");
    },
    CLI_TIMEOUT,
  );
});
