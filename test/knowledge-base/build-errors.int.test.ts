import { describe, expect, it } from "vitest";
import { KnowledgeBase, LookupKnowledgeError, type Chunk } from "../../src/index.js";
import { makeChunk } from "../helpers/retrieval-fakes.js";

const CHUNKS: Chunk[] = [makeChunk("a.md#top", { content: "refund approval limits" }), makeChunk("b.md#top", { content: "access review" })];

describe("KnowledgeBase.fromChunks with bad options or chunks", () => {
  it.each([
    ["BM25 k1 -1", { bm25: { k1: -1 } }, /bm25\.k1/],
    ["HNSW m 1 (a native crash in hnswlib)", { hnsw: { m: 1 } }, /hnsw\.m/],
    ["LSA dimensions 0", { lsa: { dimensions: 0 } }, /lsa\.dimensions/],
    ["a batch size of 0", { embedBatchSize: 0 }, /embedBatchSize/],
  ])("refuses %s with LookupKnowledgeError INVALID_OPTION", async (_name, options, message) => {
    const error = await KnowledgeBase.fromChunks(CHUNKS, options).then(() => null, (reason: unknown) => reason);
    expect(error).toBeInstanceOf(LookupKnowledgeError);
    expect(error).toMatchObject({ code: "INVALID_OPTION", message: expect.stringMatching(message) });
  });

  it("refuses a malformed chunk with a message naming it, not a TypeError later", async () => {
    const bad = [...CHUNKS, { ...makeChunk("c.md#top"), meta: { keywords: "x" } } as unknown as Chunk];
    await expect(KnowledgeBase.fromChunks(bad, { embeddings: null })).rejects.toMatchObject({ code: "INVALID_OPTION", message: expect.stringContaining("chunk 3 needs meta.keywords") });
  });
});
