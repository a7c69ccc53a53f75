import { describe, expect, it } from "vitest";
import { attachContents, decodeChunkMeta, encodeChunkMeta, encodeContents } from "../../src/knowledge-base/chunk-store.js";
import { LookupKnowledgeError } from "../../src/errors.js";
import type { Chunk } from "../../src/types.js";

function chunk(i: number, content: string): Chunk {
  return { source: `f${i}.md#top`, file: `f${i}.md`, title: `Title ${i}`, breadcrumb: [`Title ${i}`], content, meta: { keywords: ["k"], entities: [], aliases: [], domain: "d" } };
}
const CHUNKS = [chunk(0, "Refunds need approval. ".repeat(20)), chunk(1, "Zugriffsschlüssel — ключ доступа — 访问密钥 🔑"), chunk(2, "")];

function restore(meta: Uint8Array, contents: Uint8Array): Chunk[] {
  return attachContents(decodeChunkMeta(meta) as Record<string, unknown>[], contents);
}

describe("the chunk store", () => {
  it("round-trips chunks, their text inflated only when read", () => {
    const restored = restore(encodeChunkMeta(CHUNKS), encodeContents(CHUNKS));
    expect(restored).toEqual(CHUNKS);
    expect(JSON.parse(JSON.stringify(restored))).toEqual(CHUNKS);
    expect(restored[1].content).toBe(CHUNKS[1].content);
  });

  it("stores text compressed and reuses the compressed bytes of loaded chunks on the next save", () => {
    const contents = encodeContents(CHUNKS);
    expect(contents.length).toBeLessThan(CHUNKS.reduce((sum, c) => sum + Buffer.byteLength(c.content), 0));
    const restored = restore(encodeChunkMeta(CHUNKS), contents);
    expect(encodeContents(restored)).toEqual(contents);
  });

  it("refuses a contents file of another layout, and reports a chunk that does not inflate when it is read", () => {
    const meta = encodeChunkMeta(CHUNKS);
    const contents = encodeContents(CHUNKS);
    expect(() => restore(meta, contents.subarray(0, contents.length - 1))).toThrow(LookupKnowledgeError);
    expect(() => restore(encodeChunkMeta(CHUNKS.slice(0, 2)), contents)).toThrow(/contents of 2 chunks/);
    const damaged = Buffer.from(contents);
    damaged.fill(0xff, damaged.length - 8);
    const restored = restore(meta, damaged);
    expect(restored[0].source).toBe(CHUNKS[0].source);
    expect(() => restored[2].content + restored[1].content).toThrow(/do not inflate/);
  });

  it("saves loaded chunks again without inflating their texts", () => {
    const contents = encodeContents(CHUNKS);
    const damaged = Buffer.from(contents);
    damaged.fill(0xff, damaged.length - 8);
    const restored = restore(encodeChunkMeta(CHUNKS), damaged);
    // Reading a damaged text throws, so these succeed only because nothing is inflated.
    expect(decodeChunkMeta(encodeChunkMeta(restored))).toEqual(CHUNKS.map(({ content: _content, ...rest }) => rest));
    expect(encodeContents(restored)).toEqual(damaged);
  });

  it("refuses a chunk list that does not inflate to JSON", () => {
    expect(() => decodeChunkMeta(Buffer.from("not deflated"))).toThrow(LookupKnowledgeError);
  });
});
