import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import { cp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLookupKnowledgeTool,
  KnowledgeBase,
  type LookupResult,
  type ToolInvocationRecord,
  type VectorStoreDialect,
} from "../../../src/index.js";
import { rowIdOf } from "../../../src/knowledge-base/vector-store-rows.js";
import { createTempDirs, KB_DIR, readJsonl } from "../../integration/helpers/integration-fixtures.js";

/** A store under test: made empty, listing its rows, and closed at the end. */
export interface StoreUnderTest {
  store: VectorStoreInterface;
  dialect: VectorStoreDialect;
  /** The `lk_id` of every row in the store, sorted. */
  rowIds(): Promise<string[]>;
  close(): Promise<void>;
}

/** A store whose calls of `method` can be made to fail or hang, around a real one. */
export function faultyStore(
  inner: VectorStoreInterface,
  mode: { value: "ok" | "throw" | "hang" },
  method: "similaritySearchVectorWithScore" | "addVectors" = "similaritySearchVectorWithScore",
): VectorStoreInterface {
  return new Proxy(inner, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (key !== method || typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        if (mode.value === "throw") throw new Error("connection to the vector store was lost (simulated)");
        if (mode.value === "hang") return new Promise(() => {});
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** A store whose `addVectors` fails from its `failAt`-th call on: a build or update killed half-way. */
function failingWrites(inner: VectorStoreInterface, failAt: number): VectorStoreInterface {
  let calls = 0;
  return new Proxy(inner, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (key !== "addVectors" || typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        if (++calls >= failAt) throw new Error("the database went away mid-write (simulated)");
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** The ids the rows of `kb` must have: one per chunk, in its namespace and generation. */
export function expectedRowIds(kb: KnowledgeBase): string[] {
  const rows = kb.vectorStore!;
  return sorted(kb.chunks.map((chunk) => rowIdOf(chunk, kb.settings.embedder, rows)));
}

const QUERY = "who approves a large refund";
const sorted = (ids: string[]) => [...ids].sort();

/**
 * The L1 contract on a vector store, the same for every store: build, filtered search, update,
 * delete, reconnect after load, and a store that fails or hangs mid-lookup.
 */
export function describeStoreBackedL1(name: string, open: (table: string) => Promise<StoreUnderTest>): void {
  describe(`L1 in ${name}`, () => {
    const temp = createTempDirs();
    let corpusDir: string;
    let store: StoreUnderTest;
    let kb: KnowledgeBase;
    let local: KnowledgeBase;

    beforeAll(async () => {
      corpusDir = join(await temp.make(), "kb");
      await cp(KB_DIR, corpusDir, { recursive: true });
      store = await open("lk_chunks_scenarios");
      kb = await KnowledgeBase.build({
        corpusDir,
        vectorStore: { store: store.store, dialect: store.dialect },
        onWarning: () => {},
      });
      local = await KnowledgeBase.build({ corpusDir, onWarning: () => {} });
    });
    afterAll(async () => {
      await store?.close();
      await temp.cleanup();
    });
    /** Rows of the other namespace the shared-table test built (handbook), which no test of this base touches. */
    let handbookRows: string[] = [];
    const otherNamespaceRows = async () => handbookRows;

    it("writes one row per chunk, whose id follows from the chunk, the embedder, the namespace and the generation", async () => {
      expect(kb.vectorStore).toMatchObject({
        dialect: store.dialect.name,
        namespace: "default",
        generation: expect.stringMatching(/^[0-9a-f]{16}$/),
        pendingDeletes: 0,
      });
      expect(await store.rowIds()).toEqual(expectedRowIds(kb));
    });

    it("answers a lookup from the store with the same neighbours as the in-process graph", async () => {
      const options = { domain: null, k: 5, minScore: 0.05 };
      const fromStore = await kb.l1!.search(QUERY, options);
      const fromGraph = await local.l1!.search(QUERY, options);
      expect(fromStore.map((hit) => hit.chunk.source)).toEqual(fromGraph.map((hit) => hit.chunk.source));
      fromStore.forEach((hit, i) => expect(hit.score).toBeCloseTo(fromGraph[i].score, 4));
      expect(fromStore[0].chunk.source).toMatch(/^billing\/refunds\.md#/);
      expect(fromStore[0].hitReasons[0]).toMatch(/^L1:similarity:/);
    });

    it("applies the domain filter inside the store's search, so a small k still fills with that domain", async () => {
      const unfiltered = await kb.l1!.search("roll back a release", { domain: null, k: 2, minScore: -1 });
      expect(unfiltered.some((hit) => hit.chunk.meta.domain !== "billing")).toBe(true);
      const filtered = await kb.l1!.search("roll back a release", { domain: "billing", k: 2, minScore: -1 });
      expect(filtered).toHaveLength(2);
      for (const hit of filtered) {
        expect(hit.chunk.meta.domain).toBe("billing");
        expect(hit.hitReasons).toContain("L1:domain_filter:billing");
      }
    });

    it("updates incrementally: writes only new and changed chunks' rows, and deletes the rows of removed ones once the save commits", async () => {
      const edited = join(corpusDir, "billing/refunds.md");
      await writeFile(edited, (await readFile(edited, "utf8")).replace("500 euros", "750 euros"));
      await rm(join(corpusDir, "deploy/deploy-freeze.md"));
      await writeFile(
        join(corpusDir, "billing/late-fees.md"),
        "---\ntitle: Late Fees\ndomain: billing\n---\nA late fee of 1.5% per month applies to invoices 45 days past due.\n",
      );
      const before = expectedRowIds(kb);
      const { knowledgeBase, changes } = await kb.update({ corpusDir });
      const after = expectedRowIds(knowledgeBase);
      expect(knowledgeBase.vectorStore?.generation).toBe(kb.vectorStore?.generation);
      const removed = before.filter((id) => !after.includes(id));
      expect(changes.storeRows).toEqual({
        written: after.filter((id) => !before.includes(id)).length,
        deleted: removed.length,
      });
      // Until the new index is saved, the rows the saved one reads stay.
      expect(await store.rowIds()).toEqual(sorted([...after, ...removed]));
      expect(knowledgeBase.vectorStore?.pendingDeletes).toBe(removed.length);
      await knowledgeBase.save(await temp.make());
      expect(await store.rowIds()).toEqual(after);
      expect(knowledgeBase.vectorStore?.pendingDeletes).toBe(0);
      expect(changes.storeRows!.written).toBeGreaterThan(0);
      expect(changes.storeRows!.written).toBeLessThan(after.length);
      expect(changes.storeRows!.deleted).toBeGreaterThan(0);
      // The kept embedder has not learnt the new file's words: its row is found among the billing rows.
      const hits = await knowledgeBase.l1!.search("a late fee applies to invoices past due", {
        domain: "billing",
        k: 20,
        minScore: -1,
      });
      expect(hits.map((hit) => hit.chunk.source)).toContain("billing/late-fees.md#top");
      const freeze = await knowledgeBase.l1!.search("deploy freeze", { domain: null, k: 20, minScore: -1 });
      expect(freeze.some((hit) => hit.chunk.source.startsWith("deploy/deploy-freeze.md"))).toBe(false);
      kb = knowledgeBase;
    });

    it("records the store in the saved index and reconnects to it at load, refusing a load without it or with another store", async () => {
      const dir = await temp.make();
      await kb.save(dir);
      const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as {
        vectorStore?: { dialect: string };
      };
      expect(manifest.vectorStore?.dialect).toBe(store.dialect.name);
      await expect(KnowledgeBase.load(dir)).rejects.toMatchObject({
        code: "VECTOR_STORE_REQUIRED",
        message: expect.stringContaining(`keeps L1 in a ${store.dialect.name} vector store`),
      });
      const other: VectorStoreDialect = { ...store.dialect, name: "another" };
      await expect(
        KnowledgeBase.load(dir, { vectorStore: { store: store.store, dialect: other } }),
      ).rejects.toMatchObject({ code: "VECTOR_STORE_REQUIRED" });
      const loaded = await KnowledgeBase.load(dir, { vectorStore: { store: store.store, dialect: store.dialect } });
      const options = { domain: null, k: 5, minScore: 0.05 };
      expect((await loaded.l1!.search(QUERY, options)).map((hit) => hit.chunk.source)).toEqual(
        (await kb.l1!.search(QUERY, options)).map((hit) => hit.chunk.source),
      );

      await writeFile(
        join(corpusDir, "access/sso.md"),
        "---\ntitle: Single Sign-On\ndomain: access\n---\nSingle sign-on goes through the Okta tenant; new apps need a SAML connector.\n",
      );
      const { knowledgeBase, changes } = await loaded.update({ corpusDir });
      expect(changes.storeRows).toEqual({ written: 1, deleted: 0 });
      expect(await store.rowIds()).toEqual(expectedRowIds(knowledgeBase));
      const access = await knowledgeBase.l1!.search("access for new apps", { domain: "access", k: 20, minScore: -1 });
      expect(access.map((hit) => hit.chunk.source)).toContain("access/sso.md#top");
      kb = knowledgeBase;
    });

    it("keeps two knowledge bases of one table apart by namespace: building one leaves the other's rows and lookups alone", async () => {
      const other = await KnowledgeBase.build({
        corpusDir: KB_DIR,
        vectorStore: { store: store.store, dialect: store.dialect, namespace: "handbook" },
        onWarning: () => {},
      });
      await other.save(await temp.make());
      expect(await store.rowIds()).toEqual(sorted([...expectedRowIds(kb), ...expectedRowIds(other)]));
      const mine = await kb.l1!.search(QUERY, { domain: null, k: 30, minScore: -1 });
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.every((hit) => kb.chunks[hit.id] === hit.chunk)).toBe(true);
      const theirs = await other.l1!.search(QUERY, { domain: "billing", k: 3, minScore: -1 });
      expect(theirs.map((hit) => hit.chunk.meta.domain)).toEqual(["billing", "billing", "billing"]);
      // A rebuild of the other base replaces its own rows only.
      const again = await KnowledgeBase.build({
        corpusDir: KB_DIR,
        vectorStore: { store: store.store, dialect: store.dialect, namespace: "handbook" },
        onWarning: () => {},
      });
      await again.save(await temp.make());
      expect(await store.rowIds()).toEqual(sorted([...expectedRowIds(kb), ...expectedRowIds(again)]));
      handbookRows = expectedRowIds(again);
    });

    it("leaves the saved index's rows whole when a full build dies half-way, and the next build and save leave exactly its own rows", async () => {
      const saved = await temp.make();
      await kb.save(saved);
      const before = await store.rowIds();
      const dying = { store: failingWrites(store.store, 2), dialect: store.dialect };
      await expect(
        KnowledgeBase.build({ corpusDir, vectorStore: dying, embedBatchSize: 8, onWarning: () => {} }),
      ).rejects.toMatchObject({ code: "VECTOR_STORE_FAILED", message: expect.stringContaining("went away mid-write") });
      // The half-written generation is there, but the saved index reads its own, which is whole.
      const loaded = await KnowledgeBase.load(saved, { vectorStore: { store: store.store, dialect: store.dialect } });
      expect((await store.rowIds()).filter((id) => before.includes(id))).toEqual(before);
      expect((await loaded.l1!.search(QUERY, { domain: null, k: 3, minScore: 0.05 }))[0].chunk.source).toMatch(
        /^billing\/refunds\.md#/,
      );
      // keepGenerations 0: no replica serves the saved index, so its rows go at once.
      const rebuilt = await KnowledgeBase.build({
        corpusDir,
        vectorStore: { store: store.store, dialect: store.dialect, keepGenerations: 0 },
        onWarning: () => {},
      });
      await rebuilt.save(saved);
      expect(await store.rowIds()).toEqual(sorted([...expectedRowIds(rebuilt), ...(await otherNamespaceRows())]));
      kb = rebuilt;
    });

    it("converges after an update that dies half-way: the retry and its save leave exactly the current rows", async () => {
      const saved = await temp.make();
      await kb.save(saved);
      await writeFile(
        join(corpusDir, "billing/credits.md"),
        "---\ntitle: Service Credits\ndomain: billing\n---\nService credits are issued after an outage.\n\n## Claiming\n\nClaim within 30 days.\n\n## Limits\n\nAt most 10% of the monthly fee.\n",
      );
      const dying = await KnowledgeBase.load(saved, {
        vectorStore: { store: failingWrites(store.store, 2), dialect: store.dialect },
        localVectors: true,
      });
      await expect(dying.update({ corpusDir, embedBatchSize: 1 })).rejects.toMatchObject({
        code: "VECTOR_STORE_FAILED",
      });
      const retry = await KnowledgeBase.load(saved, {
        vectorStore: { store: store.store, dialect: store.dialect, keepGenerations: 0 },
        localVectors: true,
      });
      const { knowledgeBase } = await retry.update({ corpusDir });
      await knowledgeBase.save(saved);
      expect(await store.rowIds()).toEqual(sorted([...expectedRowIds(knowledgeBase), ...(await otherNamespaceRows())]));
      kb = knowledgeBase;
    });

    it("serves a store-backed load without reading the local graph, and a save of it still loads for an update", async () => {
      const saved = await temp.make();
      await kb.save(saved);
      const serving = await KnowledgeBase.load(saved, { vectorStore: { store: store.store, dialect: store.dialect } });
      expect((await serving.l1!.search(QUERY, { domain: null, k: 3, minScore: 0.05 }))[0].chunk.source).toMatch(
        /^billing\/refunds\.md#/,
      );
      const resaved = await temp.make();
      await serving.save(resaved);
      const manifest = JSON.parse(await readFile(join(resaved, "manifest.json"), "utf8")) as {
        checksums: Record<string, string>;
      };
      expect(Object.keys(manifest.checksums).some((name) => name.startsWith("vectors"))).toBe(false);
      const updater = await KnowledgeBase.load(resaved, {
        vectorStore: { store: store.store, dialect: store.dialect, keepGenerations: 0 },
        localVectors: true,
      });
      const { knowledgeBase } = await updater.update({ corpusDir });
      await knowledgeBase.save(resaved);
      expect(await store.rowIds()).toEqual(sorted([...expectedRowIds(knowledgeBase), ...(await otherNamespaceRows())]));
      kb = knowledgeBase;
    });

    it.each(["throw", "hang"] as const)(
      "falls back to L0 and traces the error when the store starts to %s mid-lookup",
      async (fault) => {
        const mode: { value: "ok" | "throw" | "hang" } = { value: "ok" };
        const dir = await temp.make();
        await kb.save(dir);
        const loaded = await KnowledgeBase.load(dir, {
          vectorStore: { store: faultyStore(store.store, mode), dialect: store.dialect },
        });
        const tracePath = join(dir, "trace.jsonl");
        const lookup = createLookupKnowledgeTool({ knowledgeBase: loaded, tracePath, l1: { timeoutMs: 300 } });
        const ok = (await lookup.invoke({ type: "tool_call", id: "before", name: lookup.name, args: { query: QUERY } }))
          .artifact as LookupResult;
        expect(ok.l1Status).toBe("ok");
        mode.value = fault;
        const failed = (
          await lookup.invoke({ type: "tool_call", id: "during", name: lookup.name, args: { query: QUERY } })
        ).artifact as LookupResult;
        expect(failed.l1Status).toBe("error");
        expect(failed.fallbackReason).toBe("l1_error");
        expect(failed.primary?.source).toMatch(/^billing\/refunds\.md#/);
        await lookup.close();
        const lines = (await readJsonl(tracePath)) as ToolInvocationRecord[];
        expect(lines.at(-1)?.retrieval_details?.l1.error).toMatch(
          fault === "throw"
            ? /vector store failed: connection to the vector store was lost/
            : /vector store did not answer within 300 ms/,
        );
      },
    );
  });
}
