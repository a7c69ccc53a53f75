import { cp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import {
  connectPgVectorStore,
  createRetrievalGraph,
  followKnowledgeBase,
  KnowledgeBase,
  type LookupResult,
} from "../../../src/index.js";
import { createTempDirs, KB_DIR } from "../../integration/helpers/integration-fixtures.js";
import { HashedWordEmbeddings } from "../../access/hashed-embeddings.js";
import { describeReplicas } from "./replica-scenarios.js";

const url = process.env.LOOKUP_KNOWLEDGE_PG_URL;

/** Runs one statement on its own short-lived pool. */
async function sql(text: string): Promise<pg.QueryResult> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    return await pool.query(text);
  } finally {
    await pool.end();
  }
}

describe.skipIf(!url)("pgvector replicas (LOOKUP_KNOWLEDGE_PG_URL)", () => {
  const openTable = async (table: string) => {
    const tableName = `${table}_${process.pid}`;
    await sql(`DROP TABLE IF EXISTS ${tableName}`);
    return {
      connect: async () => {
        const { store, dialect } = await connectPgVectorStore({ connectionString: url!, tableName });
        return { store, dialect, close: () => store.end() };
      },
      rowIds: async () =>
        (await sql(`SELECT metadata->>'lk_id' AS id FROM ${tableName}`)).rows
          .map((row: { id: string }) => row.id)
          .sort(),
      close: async () => void (await sql(`DROP TABLE IF EXISTS ${tableName}`)),
    };
  };
  describeReplicas("Postgres with pgvector, one connection per instance", openTable);
  // A fixed length: the table gets its vector(n) column and HNSW index, and lookups go through it.
  describeReplicas(
    "Postgres with pgvector and its HNSW index",
    (table) => openTable(`${table}_hnsw`),
    new HashedWordEmbeddings(64),
  );

  describe("two instances on one pgvector table", () => {
    const temp = createTempDirs("lookup-knowledge-pg-follow-");
    const tableName = `lk_chunks_follow_${process.pid}`;
    afterAll(async () => {
      await sql(`DROP TABLE IF EXISTS ${tableName}`);
      await temp.cleanup();
    });

    const marker = (word: string) =>
      `---\ntitle: Release Codename\ndomain: billing\nkeywords: [release codename]\n---\n# Release Codename\n\nThe release codename is ${word}. Every release codename question is answered here.\n`;
    const codenamesIn = (result: LookupResult) => [
      ...new Set(result.evidence.flatMap((block) => block.content.match(/\b(alphaword|betaword|gammaword)\b/g) ?? [])),
    ];
    /** Resolves once `check` holds, polling every 20 ms; rejects after a minute (a hang guard, not a speed check). */
    async function until(check: () => boolean): Promise<void> {
      const deadline = Date.now() + 60_000;
      while (!check()) {
        if (Date.now() > deadline) throw new Error("the condition did not hold in time");
        await new Promise((done) => setTimeout(done, 20));
      }
    }

    it("Two instances on one pgvector table: the follower keeps `l1Status: ok` through the other's update and save", async () => {
      const root = await temp.make();
      const corpusDir = join(root, "corpus");
      const dir = join(root, "index");
      await cp(KB_DIR, corpusDir, { recursive: true });
      await writeFile(join(corpusDir, "billing/zz-release-codename.md"), marker("alphaword"));
      const writerStore = await connectPgVectorStore({ connectionString: url!, tableName });
      const followerStore = await connectPgVectorStore({ connectionString: url!, tableName });
      try {
        await (await KnowledgeBase.build({ corpusDir, vectorStore: writerStore, onWarning: () => {} })).save(dir);
        // Polling alone, slowly: the follower stays on the previous commit for a while after each save, as a busy replica would.
        const follower = await followKnowledgeBase(dir, { pollMs: 1500, watch: false, vectorStore: followerStore });
        const graph = createRetrievalGraph({ knowledgeBase: follower, tracePath: null });
        const results: Array<{ worker: number; result: LookupResult }> = [];
        const failures: unknown[] = [];
        let stop = false;
        const worker = async (id: number) => {
          while (!stop) {
            try {
              results.push({ worker: id, result: (await graph.invoke({ query: "release codename" })).result! });
            } catch (error) {
              failures.push(error);
            }
          }
        };
        const workers = [0, 1, 2].map(worker);
        /** Every worker has answered from the index naming `word`: no lookup is pinned to an older commit any more. */
        const everyWorkerSaw = (word: string) =>
          [0, 1, 2].every((id) =>
            results.some((entry) => entry.worker === id && codenamesIn(entry.result).includes(word)),
          );
        await until(() => everyWorkerSaw("alphaword"));
        // An incremental update (same rows generation), then a full rebuild (a new one).
        for (const [word, full] of [
          ["betaword", false],
          ["gammaword", true],
        ] as const) {
          await writeFile(join(corpusDir, "billing/zz-release-codename.md"), marker(word));
          const writer = await KnowledgeBase.load(dir, { vectorStore: writerStore, localVectors: true });
          const next = full
            ? await KnowledgeBase.build({ corpusDir, vectorStore: writerStore, onWarning: () => {} })
            : (await writer.update({ corpusDir, onWarning: () => {} })).knowledgeBase;
          await next.save(dir);
          await until(() => everyWorkerSaw(word));
        }
        stop = true;
        await Promise.all(workers);
        follower.close();
        expect(failures).toEqual([]);
        expect(results.length).toBeGreaterThan(0);
        expect(results.filter((entry) => entry.result.l1Status !== "ok").map((entry) => entry.result.l1Status)).toEqual(
          [],
        );
        expect(codenamesIn(results.at(-1)!.result)).toEqual(["gammaword"]);
      } finally {
        await writerStore.store.end();
        await followerStore.store.end();
      }
    });
  });
});
