import { describe, expect, it } from "vitest";
import { decodeChunkMeta, encodeChunkMeta } from "../../src/knowledge-base/chunk-meta-codec.js";
import { attachContents, encodeContents } from "../../src/knowledge-base/chunk-store.js";
import { contentDigest } from "../../src/knowledge-base/content-digest.js";
import { LookupKnowledgeError } from "../../src/errors.js";
import type { Chunk } from "../../src/types.js";

function chunk(i: number, content: string): Chunk {
  return {
    source: `f${i}.md#top`,
    file: `f${i}.md`,
    title: `Title ${i}`,
    breadcrumb: [`Title ${i}`],
    content,
    meta: { keywords: ["k"], entities: [], aliases: [], domain: "d" },
  };
}
const CHUNKS = [
  chunk(0, "Refunds need approval. ".repeat(20)),
  chunk(1, "Zugriffsschlüssel — ключ доступа — 访问密钥 🔑"),
  chunk(2, ""),
];

function restore(meta: Uint8Array, contents: Uint8Array, count = CHUNKS.length): Chunk[] {
  return attachContents(decodeChunkMeta(meta, count), contents);
}

/** A chunk as a plain object, its content read. */
function plain(c: Chunk): Chunk {
  return JSON.parse(JSON.stringify(c)) as Chunk;
}

describe("the chunk store", () => {
  it("round-trips chunks, their text inflated only when read", () => {
    const restored = restore(encodeChunkMeta(CHUNKS), encodeContents(CHUNKS));
    expect(restored.map(plain)).toEqual(CHUNKS);
    expect(restored.map((c) => c.content)).toEqual(CHUNKS.map((c) => c.content));
    expect(restored.map((c) => [c.source, c.file, c.title, c.breadcrumb, c.meta])).toEqual(
      CHUNKS.map((c) => [c.source, c.file, c.title, c.breadcrumb, c.meta]),
    );
  });

  it("gives a loaded chunk's text through a getter: JSON and a copy naming content carry it, a bare spread does not", () => {
    const [restored] = restore(encodeChunkMeta(CHUNKS), encodeContents(CHUNKS));
    expect(JSON.parse(JSON.stringify(restored))).toEqual(CHUNKS[0]);
    expect({ ...restored, content: restored.content }).toEqual(CHUNKS[0]);
    expect("content" in { ...restored }).toBe(false);
    // A clone that keeps the prototype and own fields only gets a clear error, not a TypeError.
    const clone = Object.assign(Object.create(Object.getPrototypeOf(restored) as object) as Chunk, restored);
    expect(() => clone.content).toThrow(/copy of a loaded chunk without its text/);
    // A copy is a plain chunk: its digest is of its own text, never the stored one.
    const edited = { ...restored, content: "edited" };
    expect(Buffer.from(contentDigest(edited))).not.toEqual(Buffer.from(contentDigest(restored)));
  });

  it("keeps a missing title or domain missing, not undefined", () => {
    const bare: Chunk = {
      source: "a#top",
      file: "a",
      breadcrumb: [],
      content: "x",
      meta: { keywords: [], entities: [], aliases: [] },
    };
    const [restored] = restore(encodeChunkMeta([bare]), encodeContents([bare]), 1);
    expect("title" in restored).toBe(false);
    expect(Object.keys(restored.meta)).toEqual(["keywords", "entities", "aliases"]);
    expect(plain(restored)).toEqual(bare);
  });

  it("writes each distinct string and frontmatter once", () => {
    const shared = { keywords: ["refund policy"], entities: ["Finance"], aliases: [], domain: "billing" };
    const many = Array.from({ length: 200 }, (_, i): Chunk => ({
      source: `guide.md#s${i}`,
      file: "guide.md",
      title: "A long shared guide title",
      breadcrumb: ["A long shared guide title", `Section ${i}`],
      content: "",
      meta: shared,
    }));
    const bytes = encodeChunkMeta(many);
    const restored = decodeChunkMeta(bytes, many.length);
    expect(restored.map((c) => c.breadcrumb[1])).toEqual(many.map((c) => c.breadcrumb[1]));
    expect(new Set(restored.map((c) => c.meta)).size).toBe(1);
    expect(restored[0].meta).toEqual(shared);
    const copies = Array.from({ length: 200 }, (_, i): Chunk => ({
      ...many[i],
      meta: { ...shared, keywords: [...shared.keywords] },
    }));
    expect(encodeChunkMeta(copies).length).toBe(bytes.length);
  });

  it("stores text compressed and reuses the compressed bytes and digests of loaded chunks on the next save", () => {
    const contents = encodeContents(CHUNKS);
    expect(contents.length).toBeLessThan(CHUNKS.reduce((sum, c) => sum + Buffer.byteLength(c.content), 0));
    const restored = restore(encodeChunkMeta(CHUNKS), contents);
    expect(encodeContents(restored)).toEqual(contents);
    expect(restored.map((c) => Buffer.from(contentDigest(c)))).toEqual(
      CHUNKS.map((c) => Buffer.from(contentDigest(c))),
    );
  });

  it("refuses a contents file of another layout, and reports a chunk that does not inflate when it is read", () => {
    const meta = encodeChunkMeta(CHUNKS);
    const contents = encodeContents(CHUNKS);
    expect(() => restore(meta, contents.subarray(0, contents.length - 1))).toThrow(LookupKnowledgeError);
    expect(() => restore(encodeChunkMeta(CHUNKS.slice(0, 2)), contents, 2)).toThrow(/contents of 2 chunks/);
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
    expect(decodeChunkMeta(encodeChunkMeta(restored), CHUNKS.length)).toEqual(
      CHUNKS.map(({ content: _content, ...rest }) => rest),
    );
    expect(encodeContents(restored)).toEqual(damaged);
  });

  it("refuses a chunk list with one source twice, or a reference nested without end, naming the chunk", () => {
    const twice = encodeChunkMeta([CHUNKS[0], { ...CHUNKS[1], source: CHUNKS[0].source }]);
    expect(() => decodeChunkMeta(twice, 2)).toThrow(
      /chunk 1 \(numbered from 0\) has the source "f0.md#top" of an earlier chunk/,
    );
    const table = JSON.parse(encodeChunkMeta(CHUNKS).toString("utf8")) as { chunks: unknown[] };
    table.chunks[0] = "NESTED";
    const depth = 5_000;
    const text = JSON.stringify(table).replace('"NESTED"', `${"[".repeat(depth)}0${"]".repeat(depth)}`);
    expect(() => decodeChunkMeta(Buffer.from(text), 3)).toThrow(/chunk 0 .*not a whole number/);
    const metas = JSON.parse(encodeChunkMeta(CHUNKS).toString("utf8")) as { metas: unknown[][] };
    metas.metas[0][0] = "NESTED";
    expect(() =>
      decodeChunkMeta(
        Buffer.from(JSON.stringify(metas).replace('"NESTED"', `${"[".repeat(depth)}0${"]".repeat(depth)}`)),
        3,
      ),
    ).toThrow(/refers to string a list/);
  });

  it("refuses a chunk list that is not JSON, or holds another number of chunks than the manifest", () => {
    expect(() => decodeChunkMeta(Buffer.from("{ not json"), 1)).toThrow(/is not valid JSON/);
    expect(() => decodeChunkMeta(encodeChunkMeta(CHUNKS), 4)).toThrow(/holds 3 chunks, not the 4 of the manifest/);
  });
});
