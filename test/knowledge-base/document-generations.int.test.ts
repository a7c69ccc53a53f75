import { PGVectorStore } from "@langchain/community/vectorstores/pgvector";
import { Document } from "@langchain/core/documents";
import { FakeEmbeddings } from "@langchain/core/utils/testing";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followKnowledgeBase, KnowledgeBase, pgvectorDialect } from "../../src/index.js";
import { testPostgres, type PgServer } from "../helpers/pglite-server.js";
import { createTempDirs } from "../integration/helpers/integration-fixtures.js";
import { expectedRowIds } from "../l1/vector-store/store-scenarios.js";

const QUERY = "when are salaries paid";
const unique = <T>(value: T, i: number, all: T[]) => all.indexOf(value) === i;

const OTHER_PAGES = [
  "Parental leave is sixteen weeks, paid in full.",
  "Laptops are replaced every three years by the IT desk.",
  "The office opens at eight and closes at eight.",
  "Visitors sign in at reception and wear a badge.",
  "Travel is booked through the travel portal at least a week ahead.",
  "Security incidents are reported to the security team within an hour.",
];

/**
 * A handbook as a loader would give it: a page per document, one source per file. Enough pages
 * that one edited page stays under the share of changed documents that refits the embedder.
 */
function handbook(payday: string): Document[] {
  return [
    ...OTHER_PAGES.map(
      (text, i) =>
        new Document({
          pageContent: text,
          metadata: { source: "handbook.pdf", loc: { pageNumber: i + 3 }, title: "Handbook", domain: "people" },
        }),
    ),
    new Document({
      pageContent: `Salaries are paid ${payday}. Payslips are in the people portal.`,
      metadata: { source: "handbook.pdf", loc: { pageNumber: 1 }, title: "Handbook", domain: "people" },
    }),
    new Document({
      pageContent: "Annual leave is twenty-five days a year, booked two weeks ahead.",
      metadata: { source: "handbook.pdf", loc: { pageNumber: 2 }, title: "Handbook", domain: "people" },
    }),
    new Document({
      pageContent: "Expenses are claimed within thirty days through the expenses app.",
      metadata: { source: "expenses.txt", title: "Expenses", domain: "finance" },
    }),
  ];
}

const temp = createTempDirs("lookup-knowledge-document-generations-");
afterAll(() => temp.cleanup());

describe("a document sync's saved generation", () => {
  it("is picked up by a followed knowledge base without a restart, and its retriever cites the page", async () => {
    const index = join(await temp.make(), "index");
    await (await KnowledgeBase.fromDocuments(handbook("on the 25th of each month"))).save(index);
    const kb = await followKnowledgeBase(index, { pollMs: 0 });
    try {
      const retriever = kb.asRetriever({ tracePath: null });
      const before = kb.generation;
      expect((await retriever.invoke(QUERY)).map((doc) => doc.pageContent).join(" ")).toContain("25th");

      const { knowledgeBase, result } = await (
        await KnowledgeBase.load(index)
      ).syncDocuments(handbook("on the last working day"));
      expect(result).toEqual({ numAdded: 0, numUpdated: 1, numSkipped: 8, numDeleted: 0 });
      await knowledgeBase.save(index);
      await kb.refresh();

      expect(kb.generation).not.toBe(before);
      expect(kb.generation).toBe((await KnowledgeBase.load(index)).generation);
      const docs = await retriever.invoke(QUERY);
      const payday = docs.find((doc) => doc.pageContent.includes("Salaries"));
      expect(payday?.pageContent).toContain("last working day");
      expect(docs.map((doc) => doc.pageContent).join(" ")).not.toContain("25th");
      expect(payday?.metadata).toMatchObject({ source: "handbook.pdf#page-1", breadcrumb: ["Handbook", "page 1"] });
    } finally {
      kb.close();
    }
  });
});

describe("a document sync with L1 in Postgres (pgvector over the wire protocol)", () => {
  let postgres: PgServer;
  let pool: pg.Pool;
  let store: PGVectorStore;
  const tableName = `lk_document_sync_${process.pid}`;
  const rowIds = async () =>
    (await pool.query<{ id: string }>(`SELECT metadata->>'lk_id' AS id FROM ${tableName}`)).rows
      .map((row) => row.id)
      .sort();

  beforeAll(async () => {
    postgres = await testPostgres();
    pool = new pg.Pool({ connectionString: postgres.url, max: 4, connectionTimeoutMillis: 2000 });
    pool.on("error", () => {});
    await pool.query(`DROP TABLE IF EXISTS ${tableName}`);
    store = await PGVectorStore.initialize(new FakeEmbeddings(), { pool, tableName, distanceStrategy: "cosine" });
  });
  afterAll(async () => {
    await pool?.query(`DROP TABLE IF EXISTS ${tableName}`).catch(() => {});
    await store?.end().catch(() => {});
    await postgres?.stop();
  });

  it("writes the edited page's row, deletes its old one once saved, and a load answers from the new row", async () => {
    // No earlier commit kept for replicas (keepGenerations 0): the save deletes the replaced row at once.
    const vectorStore = { store, dialect: pgvectorDialect, keepGenerations: 0 };
    const built = await KnowledgeBase.fromDocuments(handbook("on the 25th of each month"), { vectorStore });
    expect(await rowIds()).toEqual(expectedRowIds(built));
    const index = join(await temp.make(), "index");
    await built.save(index);

    const { knowledgeBase, result, changes } = await built.syncDocuments(handbook("on the last working day"));
    expect(result).toEqual({ numAdded: 0, numUpdated: 1, numSkipped: 8, numDeleted: 0 });
    expect(changes.storeRows).toEqual({ written: 1, deleted: 1 });
    // Until the sync is saved, the rows the saved index reads stay.
    expect(await rowIds()).toEqual([...expectedRowIds(built), ...expectedRowIds(knowledgeBase)].filter(unique).sort());
    await knowledgeBase.save(index);
    expect(await rowIds()).toEqual(expectedRowIds(knowledgeBase));

    const loaded = await KnowledgeBase.load(index, { vectorStore });
    const hits = await loaded.l1!.search(QUERY, { domain: "people", k: 3, minScore: -1 });
    const payday = hits.find((hit) => hit.chunk.source === "handbook.pdf#page-1");
    expect(payday?.chunk.content).toContain("last working day");
    expect(hits.every((hit) => hit.chunk.meta.domain === "people")).toBe(true);
  });
});
