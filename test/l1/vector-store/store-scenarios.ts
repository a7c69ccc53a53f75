import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import { cp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLookupKnowledgeTool, KnowledgeBase, rowIdOf, type LookupResult, type ToolInvocationRecord, type VectorStoreDialect } from "../../../src/index.js";
import { createTempDirs, KB_DIR, readJsonl } from "../../integration/helpers/integration-fixtures.js";

/** A store under test: made empty, listing its rows, and closed at the end. */
export interface StoreUnderTest {
  store: VectorStoreInterface;
  dialect: VectorStoreDialect;
  /** The `lk_id` of every row in the store, sorted. */
  rowIds(): Promise<string[]>;
  close(): Promise<void>;
}

/** A store whose calls can be made to fail or hang, around a real one. */
export function faultyStore(inner: VectorStoreInterface, mode: { value: "ok" | "throw" | "hang" }): VectorStoreInterface {
  return new Proxy(inner, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (key !== "similaritySearchVectorWithScore" || typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        if (mode.value === "throw") throw new Error("connection to the vector store was lost (simulated)");
        if (mode.value === "hang") return new Promise(() => {});
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
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
      kb = await KnowledgeBase.build({ corpusDir, vectorStore: { store: store.store, dialect: store.dialect }, onWarning: () => {} });
      local = await KnowledgeBase.build({ corpusDir, onWarning: () => {} });
    });
    afterAll(async () => {
      await store?.close();
      await temp.cleanup();
    });

    it("writes one row per chunk, whose id follows from the chunk's source, content and embedder", async () => {
      expect(await store.rowIds()).toEqual(sorted(kb.chunks.map((chunk) => rowIdOf(chunk, kb.settings.embedder))));
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

    it("updates incrementally: writes only new and changed chunks' rows and deletes the rows of removed ones", async () => {
      const edited = join(corpusDir, "billing/refunds.md");
      await writeFile(edited, (await readFile(edited, "utf8")).replace("500 euros", "750 euros"));
      await rm(join(corpusDir, "deploy/deploy-freeze.md"));
      await writeFile(join(corpusDir, "billing/late-fees.md"), "---\ntitle: Late Fees\ndomain: billing\n---\nA late fee of 1.5% per month applies to invoices 45 days past due.\n");
      const before = new Set(kb.chunks.map((chunk) => rowIdOf(chunk, kb.settings.embedder)));
      const { knowledgeBase, changes } = await kb.update({ corpusDir });
      const after = knowledgeBase.chunks.map((chunk) => rowIdOf(chunk, knowledgeBase.settings.embedder));
      expect(await store.rowIds()).toEqual(sorted(after));
      expect(changes.storeRows).toEqual({ written: after.filter((id) => !before.has(id)).length, deleted: [...before].filter((id) => !after.includes(id)).length });
      expect(changes.storeRows!.written).toBeGreaterThan(0);
      expect(changes.storeRows!.written).toBeLessThan(after.length);
      expect(changes.storeRows!.deleted).toBeGreaterThan(0);
      // The kept embedder has not learnt the new file's words: its row is found among the billing rows.
      const hits = await knowledgeBase.l1!.search("a late fee applies to invoices past due", { domain: "billing", k: 20, minScore: -1 });
      expect(hits.map((hit) => hit.chunk.source)).toContain("billing/late-fees.md#top");
      const removed = await knowledgeBase.l1!.search("deploy freeze", { domain: null, k: 20, minScore: -1 });
      expect(removed.some((hit) => hit.chunk.source.startsWith("deploy/deploy-freeze.md"))).toBe(false);
      kb = knowledgeBase;
    });

    it("records the store in the saved index and reconnects to it at load, refusing a load without it or with another store", async () => {
      const dir = await temp.make();
      await kb.save(dir);
      const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as { vectorStore?: { dialect: string } };
      expect(manifest.vectorStore?.dialect).toBe(store.dialect.name);
      await expect(KnowledgeBase.load(dir)).rejects.toMatchObject({ code: "VECTOR_STORE_REQUIRED", message: expect.stringContaining(`keeps L1 in a ${store.dialect.name} vector store`) });
      const other: VectorStoreDialect = { ...store.dialect, name: "another" };
      await expect(KnowledgeBase.load(dir, { vectorStore: { store: store.store, dialect: other } })).rejects.toMatchObject({ code: "VECTOR_STORE_REQUIRED" });
      const loaded = await KnowledgeBase.load(dir, { vectorStore: { store: store.store, dialect: store.dialect } });
      const options = { domain: null, k: 5, minScore: 0.05 };
      expect((await loaded.l1!.search(QUERY, options)).map((hit) => hit.chunk.source)).toEqual((await kb.l1!.search(QUERY, options)).map((hit) => hit.chunk.source));

      await writeFile(join(corpusDir, "access/sso.md"), "---\ntitle: Single Sign-On\ndomain: access\n---\nSingle sign-on goes through the Okta tenant; new apps need a SAML connector.\n");
      const { knowledgeBase, changes } = await loaded.update({ corpusDir });
      expect(changes.storeRows?.deleted).toBe(0);
      expect(await store.rowIds()).toEqual(sorted(knowledgeBase.chunks.map((chunk) => rowIdOf(chunk, knowledgeBase.settings.embedder))));
      const access = await knowledgeBase.l1!.search("access for new apps", { domain: "access", k: 20, minScore: -1 });
      expect(access.map((hit) => hit.chunk.source)).toContain("access/sso.md#top");
    });

    it.each(["throw", "hang"] as const)("falls back to L0 and traces the error when the store starts to %s mid-lookup", async (fault) => {
      const mode: { value: "ok" | "throw" | "hang" } = { value: "ok" };
      const dir = await temp.make();
      await kb.save(dir);
      const loaded = await KnowledgeBase.load(dir, { vectorStore: { store: faultyStore(store.store, mode), dialect: store.dialect } });
      const tracePath = join(dir, "trace.jsonl");
      const lookup = createLookupKnowledgeTool({ knowledgeBase: loaded, tracePath, l1: { timeoutMs: 300 } });
      const ok = (await lookup.invoke({ type: "tool_call", id: "before", name: lookup.name, args: { query: QUERY } })).artifact as LookupResult;
      expect(ok.l1Status).toBe("ok");
      mode.value = fault;
      const failed = (await lookup.invoke({ type: "tool_call", id: "during", name: lookup.name, args: { query: QUERY } })).artifact as LookupResult;
      expect(failed.l1Status).toBe("error");
      expect(failed.fallbackReason).toBe("l1_error");
      expect(failed.primary?.source).toMatch(/^billing\/refunds\.md#/);
      await lookup.close();
      const lines = (await readJsonl(tracePath)) as ToolInvocationRecord[];
      expect(lines.at(-1)?.retrieval_details?.l1.error).toMatch(fault === "throw" ? /vector store failed: connection to the vector store was lost/ : /vector store did not answer within 300 ms/);
    });
  });
}
