import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLookupKnowledgeTool,
  createRetrievalGraph,
  KnowledgeBase,
  type LookupResult,
  type ToolInvocationRecord,
} from "../../src/index.js";
import {
  createTempDirs,
  EMBEDDING_FAILURE,
  expectLookupError,
  KB_DIR,
  QueryFailingEmbeddings,
  readJsonl,
} from "./helpers/integration-fixtures.js";

const QUERY = "rotate an API key";

describe("lookups when the dense layer throws, is missing or is off", () => {
  const temp = createTempDirs();
  afterAll(() => temp.cleanup());

  describe("embeddings that fail at query time", () => {
    let embeddings: QueryFailingEmbeddings;
    let kb: KnowledgeBase;

    beforeAll(async () => {
      embeddings = new QueryFailingEmbeddings();
      kb = await KnowledgeBase.build({ corpusDir: KB_DIR, embeddings, onWarning: () => {} });
    });

    it("answers from L1 while the embeddings work", async () => {
      embeddings.failQueries = false;
      const { result } = await createRetrievalGraph({ knowledgeBase: kb, tracePath: null }).invoke({ query: QUERY });
      expect(result?.l1Status).toBe("ok");
      expect(result?.fallbackReason).toBeNull();
    });

    it("falls back to L0 evidence and traces the L1 error and the L0 hints", async () => {
      embeddings.failQueries = true;
      const calls = embeddings.queryCalls;
      const tracePath = join(await temp.make(), "traces", "tool_invocation.jsonl");
      const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath });
      const message = await lookup.invoke({
        type: "tool_call",
        id: "l1-fails",
        name: lookup.name,
        args: { query: QUERY },
      });
      const result = message.artifact as LookupResult;

      expect(embeddings.queryCalls).toBe(calls + 1);
      expect(result.l1Status).toBe("error");
      expect(result.fallbackReason).toBe("l1_error");
      expect(result.retrievalLayer).toBe("L0");
      expect(result.relevance.semanticSupport).toBe(false);
      expect(result.evidence.length).toBeGreaterThan(0);
      expect(result.primary?.source).toMatch(/^access\/api-key-rotation\.md#/);
      for (const block of result.evidence) {
        expect(block.retrievalLayer).toBe("L0");
        expect(block.hitReasons.every((reason) => reason.startsWith("L0:"))).toBe(true);
      }
      expect(String(message.content)).toContain("retrieval layer: L0");
      expect(result.traceWritten).toBe(true);

      const lines = (await readJsonl(tracePath)) as ToolInvocationRecord[];
      expect(lines).toHaveLength(1);
      const [line] = lines;
      expect(line.status).toBe("success");
      expect(line.invocation_id).toBe(result.invocationId);
      expect(line.retrieval_details?.l1.status).toBe("error");
      expect(line.retrieval_details?.l1.error).toContain(EMBEDDING_FAILURE);
      expect(line.retrieval_details?.fallback_reason).toBe("l1_error");
      expect(line.retrieval_details?.l0.matched_titles).toContain("API Key Rotation");
      expect(line.retrieval_details?.l0.matched_keywords).toEqual(expect.arrayContaining(["api key", "key rotation"]));
      expect(line.retrieval_details?.l0.domains).toEqual(["access"]);
    });
  });

  it("reports L1 `unavailable` for a base built without embeddings, before and after save and load", async () => {
    const kb = await KnowledgeBase.build({ corpusDir: KB_DIR, embeddings: null, onWarning: () => {} });
    expect(kb.l1).toBeNull();
    expect(kb.settings.embedder.kind).toBe("none");
    const dir = await temp.make();
    await kb.save(dir);
    const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as {
      checksums: Record<string, string>;
    };
    expect(Object.keys(manifest.checksums)).not.toContain("vectors.hnsw");
    expect(Object.keys(manifest.checksums)).toContain("chunk-list.json");
    const loaded = await KnowledgeBase.load(dir);
    expect(loaded.fingerprint).toBe(kb.fingerprint);

    for (const base of [kb, loaded]) {
      const { result } = await createRetrievalGraph({ knowledgeBase: base, tracePath: null }).invoke({ query: QUERY });
      expect(result?.l1Status).toBe("unavailable");
      expect(result?.fallbackReason).toBe("l1_unavailable");
      expect(result?.retrievalLayer).toBe("L0");
      expect(result?.primary?.source).toMatch(/^access\/api-key-rotation\.md#/);
    }
  });

  it("reports L1 `disabled` when the options turn it off", async () => {
    const kb = await KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} });
    const { result } = await createRetrievalGraph({
      knowledgeBase: kb,
      tracePath: null,
      l1: { enabled: false },
    }).invoke({ query: QUERY });
    expect(result?.l1Status).toBe("disabled");
    expect(result?.fallbackReason).toBe("l1_disabled");
    expect(result?.retrievalLayer).toBe("L0");
    expect(result?.evidence.length).toBeGreaterThan(0);
  });

  it("requires the custom embeddings to load an index built with them, and works once they are given", async () => {
    const embeddings = new QueryFailingEmbeddings();
    const kb = await KnowledgeBase.build({ corpusDir: KB_DIR, embeddings, onWarning: () => {} });
    expect(kb.settings.embedder).toMatchObject({ kind: "custom", name: "QueryFailingEmbeddings" });
    const dir = await temp.make();
    await kb.save(dir);

    const error = await expectLookupError(KnowledgeBase.load(dir), "EMBEDDINGS_REQUIRED");
    expect(error.message).toContain("QueryFailingEmbeddings");
    expect(error.message).toContain(dir);

    const loaded = await KnowledgeBase.load(dir, { embeddings });
    expect(loaded.fingerprint).toBe(kb.fingerprint);
    const { result } = await createRetrievalGraph({ knowledgeBase: loaded, tracePath: null }).invoke({ query: QUERY });
    expect(result?.l1Status).toBe("ok");
    expect(result?.retrievalLayer).toBe("L0+L1");
  });
  it("refuses other embeddings for an index built with the statistical embedder, and says how to load it", async () => {
    const kb = await KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} });
    const dir = await temp.make();
    await kb.save(dir);

    const error = await expectLookupError(
      KnowledgeBase.load(dir, { embeddings: new QueryFailingEmbeddings() }),
      "INDEX_MISMATCH",
    );
    expect(error.message).toContain("load it without `embeddings`");
    expect((await KnowledgeBase.load(dir)).fingerprint).toBe(kb.fingerprint);
  });
});
