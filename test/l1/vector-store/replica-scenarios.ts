import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import { cp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRetrievalGraph, KnowledgeBase, type VectorStoreDialect } from "../../../src/index.js";
import { createTempDirs, KB_DIR } from "../../integration/helpers/integration-fixtures.js";
import { expectedRowIds } from "./store-scenarios.js";

/** One connection to the table under test, as a separate process would open it. */
export interface StoreConnection {
  store: VectorStoreInterface;
  dialect: VectorStoreDialect;
  close(): Promise<void>;
}

/** A table under test: new connections to it, its rows, and its removal at the end. */
export interface ReplicaTable {
  connect(): Promise<StoreConnection>;
  /** The `lk_id` of every row, sorted. */
  rowIds(): Promise<string[]>;
  close(): Promise<void>;
}

const QUERIES = ["who approves a large refund", "roll back a release", "deploy freeze"];
const SEARCH = { domain: null, k: 5, minScore: -1 };

/** The L1 hits of `kb` for every query: sources and scores. */
async function hitsOf(kb: KnowledgeBase): Promise<Array<Array<[string, number]>>> {
  return Promise.all(
    QUERIES.map(async (query) =>
      (await kb.l1!.search(query, SEARCH)).map((hit): [string, number] => [hit.chunk.source, hit.score]),
    ),
  );
}

function expectSameHits(actual: Array<Array<[string, number]>>, expected: Array<Array<[string, number]>>): void {
  expect(actual.map((hits) => hits.map(([source]) => source))).toEqual(
    expected.map((hits) => hits.map(([source]) => source)),
  );
  actual.forEach((hits, i) => hits.forEach(([, score], j) => expect(score).toBeCloseTo(expected[i][j][1], 5)));
}

/** Edits one file, removes one and adds one. */
async function changeCorpus(corpusDir: string, amount: string): Promise<void> {
  const edited = join(corpusDir, "billing/refunds.md");
  await writeFile(edited, (await readFile(edited, "utf8")).replace(/\b\d+ euros/, `${amount} euros`));
  await rm(join(corpusDir, "deploy/deploy-freeze.md"), { force: true });
  await writeFile(
    join(corpusDir, `billing/fees-${amount}.md`),
    `---\ntitle: Fees ${amount}\ndomain: billing\n---\nA fee of ${amount} euros applies to invoices 45 days past due.\n`,
  );
}

/**
 * Replicas on one table through a writer's updates and rebuilds, for `keepGenerations` 1 and 0;
 * with the default embedder, or with `embeddings` (custom ones of a fixed length, which a
 * pgvector table gets its HNSW index for).
 */
export function describeReplicas(
  name: string,
  open: (table: string) => Promise<ReplicaTable>,
  embeddings?: EmbeddingsInterface,
): void {
  describe(`replicas of one index on ${name}${embeddings ? " (custom embeddings)" : ""}`, () => {
    const temp = createTempDirs("lookup-knowledge-replicas-");
    let table: ReplicaTable;
    const connections: StoreConnection[] = [];
    const connect = async () => {
      const connection = await table.connect();
      connections.push(connection);
      return connection;
    };

    beforeAll(async () => {
      table = await open("lk_chunks_replicas");
    });
    afterAll(async () => {
      for (const connection of connections) await connection.close();
      await table?.close();
      await temp.cleanup();
    });

    const custom = embeddings === undefined ? {} : { embeddings };
    /** A corpus, its index in `dir` built with `keepGenerations`, and a reader of it on its own connection. */
    async function setUp(keepGenerations: number) {
      const root = await temp.make();
      const corpusDir = join(root, "corpus");
      const dir = join(root, "index");
      await cp(KB_DIR, corpusDir, { recursive: true });
      const writerStore = await connect();
      const vectorStore = {
        store: writerStore.store,
        dialect: writerStore.dialect,
        namespace: `replicas${keepGenerations}`,
        keepGenerations,
      };
      await (await KnowledgeBase.build({ corpusDir, vectorStore, ...custom, onWarning: () => {} })).save(dir);
      const readerStore = await connect();
      const reader = await KnowledgeBase.load(dir, {
        vectorStore: { store: readerStore.store, dialect: readerStore.dialect },
        ...custom,
      });
      const update = async (amount: string) => {
        await changeCorpus(corpusDir, amount);
        const writer = await KnowledgeBase.load(dir, { vectorStore, localVectors: true, ...custom });
        const { knowledgeBase } = await writer.update({ corpusDir, onWarning: () => {} });
        await knowledgeBase.save(dir);
        return knowledgeBase;
      };
      const rebuild = () => KnowledgeBase.build({ corpusDir, vectorStore, ...custom, onWarning: () => {} });
      return { dir, reader, update, rebuild, before: await hitsOf(reader) };
    }

    it("keeps a replica on the previous commit answering from L1 with the same hits through an update and save", async () => {
      const { reader, update, before } = await setUp(1);
      const lookup = createRetrievalGraph({ knowledgeBase: reader, tracePath: null });
      const first = await update("750");
      expect((await lookup.invoke({ query: QUERIES[0] })).result?.l1Status).toBe("ok");
      expectSameHits(await hitsOf(reader), before);
      const rows = await table.rowIds();
      expect(expectedRowIds(reader).every((id) => rows.includes(id))).toBe(true);
      // The writer's own lookups skip the rows kept for the reader inside the search: k hits, all its own.
      const own = await first.l1!.search(QUERIES[0], SEARCH);
      expect(own).toHaveLength(SEARCH.k);
      expect(own.every((hit) => first.chunks[hit.id] === hit.chunk)).toBe(true);
      expect(first.chunks.some((chunk) => chunk.content.includes("750 euros"))).toBe(true);

      // A second commit: the reader's one falls out of the window, the first update's stays.
      const second = await update("900");
      const after = await table.rowIds();
      const gone = expectedRowIds(reader).filter((id) => !expectedRowIds(first).includes(id));
      expect(gone.length).toBeGreaterThan(0);
      expect(gone.some((id) => after.includes(id))).toBe(false);
      expect(expectedRowIds(first).every((id) => after.includes(id))).toBe(true);
      expect(expectedRowIds(second).every((id) => after.includes(id))).toBe(true);
    });

    it("keeps a replica's whole generation through a full rebuild saved into its folder", async () => {
      const { dir, reader, rebuild, before } = await setUp(1);
      const rebuilt = await rebuild();
      await rebuilt.save(dir);
      expect(rebuilt.vectorStore!.generation).not.toBe(reader.vectorStore!.generation);
      const lookup = createRetrievalGraph({ knowledgeBase: reader, tracePath: null });
      expect((await lookup.invoke({ query: QUERIES[0] })).result?.l1Status).toBe("ok");
      expectSameHits(await hitsOf(reader), before);
      const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as {
        vectorStore: { retained: unknown };
      };
      expect(manifest.vectorStore.retained).toEqual([
        { generation: reader.vectorStore!.generation, pendingDeletes: [] },
      ]);
    });

    it("with keepGenerations 0 deletes the previous commit's rows as soon as the save commits", async () => {
      const { dir, reader, update, rebuild } = await setUp(0);
      const first = await update("750");
      const gone = expectedRowIds(reader).filter((id) => !expectedRowIds(first).includes(id));
      const rowsNow = await table.rowIds();
      expect(gone.length).toBeGreaterThan(0);
      expect(gone.some((id) => rowsNow.includes(id))).toBe(false);
      const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as {
        vectorStore: Record<string, unknown>;
      };
      expect(manifest.vectorStore.retained).toBeUndefined();
      await (await rebuild()).save(dir);
      expect(await reader.l1!.search(QUERIES[0], SEARCH)).toEqual([]);
    });
  });
}
