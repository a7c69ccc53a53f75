import { describe, expect, it } from "vitest";
import { KnowledgeBase, LookupKnowledgeError, type Chunk } from "../../src/index.js";
import { makeChunk } from "../helpers/retrieval-fakes.js";

const CHUNKS: Chunk[] = [
  makeChunk("a.md#top", { content: "refund approval limits" }),
  makeChunk("b.md#top", { content: "access review" }),
];

describe("KnowledgeBase.fromChunks with bad options or chunks", () => {
  it.each([
    ["BM25 k1 -1", { bm25: { k1: -1 } }, /bm25\.k1/],
    ["HNSW m 1 (a native crash in hnswlib)", { hnsw: { m: 1 } }, /hnsw\.m/],
    ["LSA dimensions 0", { lsa: { dimensions: 0 } }, /lsa\.dimensions/],
    ["a batch size of 0", { embedBatchSize: 0 }, /embedBatchSize/],
  ])("refuses %s with LookupKnowledgeError INVALID_OPTION", async (_name, options, message) => {
    const error = await KnowledgeBase.fromChunks(CHUNKS, options).then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(LookupKnowledgeError);
    expect(error).toMatchObject({ code: "INVALID_OPTION", message: expect.stringMatching(message) });
  });

  it.each([
    ["null options", null, /must be an object/],
    ["null corpus options", { corpusDir: "corpus", corpus: null }, /option corpus must be an object/],
    ["null HNSW options", { corpusDir: "corpus", hnsw: null }, /option hnsw must be an object/],
    [
      "a progress callback that is a number",
      { corpusDir: "corpus", onProgress: 5 },
      /option onProgress must be a function/,
    ],
    ["no corpus folder", { embeddings: null }, /corpusDir must be a folder path/],
  ])("refuses build with %s before reading anything", async (_name, options, message) => {
    await expect(KnowledgeBase.build(options as never)).rejects.toMatchObject({
      name: "LookupKnowledgeError",
      code: "INVALID_OPTION",
      message: expect.stringMatching(message),
    });
  });

  it("refuses to save or load with a folder that is not a path", async () => {
    const kb = await KnowledgeBase.fromChunks(CHUNKS, { embeddings: null });
    await expect(kb.save(null as never)).rejects.toMatchObject({ code: "INVALID_OPTION" });
    await expect(KnowledgeBase.load(42 as never)).rejects.toMatchObject({ code: "INVALID_OPTION" });
  });

  it("refuses a malformed chunk with a message naming it, not a TypeError later", async () => {
    const bad = [...CHUNKS, { ...makeChunk("c.md#top"), meta: { keywords: "x" } } as unknown as Chunk];
    await expect(KnowledgeBase.fromChunks(bad, { embeddings: null })).rejects.toMatchObject({
      code: "INVALID_OPTION",
      message: expect.stringContaining("chunk 3 needs meta.keywords"),
    });
  });
});
