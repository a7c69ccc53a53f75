import { describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import { decodeChunkMeta, encodeChunkMeta, type ChunkFields } from "../../src/knowledge-base/chunk-meta-codec.js";
import type { Chunk, DocumentMeta } from "../../src/types.js";

function chunk(source: string, meta: DocumentMeta): Chunk {
  return {
    source,
    file: source.split("#")[0],
    title: "Guide",
    breadcrumb: ["Guide", source],
    content: `content of ${source}`,
    meta,
  };
}

const BASE = { title: "Guide", domain: "ops", keywords: ["deploy"], entities: ["Kubernetes"], aliases: ["rollout"] };

function roundTrip(chunks: readonly Chunk[]): ChunkFields[] {
  return decodeChunkMeta(encodeChunkMeta(chunks), chunks.length);
}

/** A chunk list as an index written before access labels holds it: five-element metas. */
function olderList(metas: unknown[]): Uint8Array {
  const strings = ["old.md#top", "old.md", "Old", "ops", "deploy"];
  // source, file, title, meta, one breadcrumb entry: "Old".
  const chunks = [0, 1, 2, 0, 1, 2];
  return Buffer.from(JSON.stringify({ format: "lookup-knowledge-chunks", version: 1, strings, metas, chunks }));
}

function corruptCode(bytes: Uint8Array, count: number): string | undefined {
  try {
    decodeChunkMeta(bytes, count);
    return undefined;
  } catch (error) {
    return error instanceof LookupKnowledgeError ? error.code : "not a LookupKnowledgeError";
  }
}

describe("chunk meta codec with access labels", () => {
  it("keeps an access list through encode and decode", () => {
    const [decoded] = roundTrip([chunk("a.md#top", { ...BASE, access: ["finance", "ops"] })]);
    expect(decoded.meta).toEqual({ ...BASE, access: ["finance", "ops"] });
  });

  it("keeps an empty access list as empty, never as absent", () => {
    const [decoded] = roundTrip([chunk("a.md#top", { ...BASE, access: [] })]);
    expect(decoded.meta).toHaveProperty("access", []);
  });

  it("writes no access key for a chunk without one", () => {
    const [decoded] = roundTrip([chunk("a.md#top", { ...BASE })]);
    expect(decoded.meta).toEqual(BASE);
    expect(decoded.meta).not.toHaveProperty("access");
  });

  it("keeps apart frontmatters that differ only in their access", () => {
    const chunks = [
      chunk("a.md#top", { ...BASE }),
      chunk("b.md#top", { ...BASE, access: [] }),
      chunk("c.md#top", { ...BASE, access: ["ops"] }),
      chunk("d.md#top", { ...BASE, access: ["finance"] }),
      chunk("e.md#top", { ...BASE, access: ["ops"] }),
    ];
    const decoded = roundTrip(chunks);
    expect(decoded.map(({ meta }) => meta.access)).toEqual([undefined, [], ["ops"], ["finance"], ["ops"]]);
    const parsed = JSON.parse(encodeChunkMeta(chunks).toString("utf8")) as { metas: unknown[][] };
    expect(parsed.metas).toHaveLength(4);
    expect(parsed.metas.map((meta) => meta.length)).toEqual([5, 6, 6, 6]);
  });

  it("round-trips every other field of a labelled chunk but its content", () => {
    const original = chunk("guide.md#setup", { ...BASE, access: ["ops"] });
    const [decoded] = roundTrip([original]);
    const { content: _content, ...fields } = original;
    expect(decoded).toEqual(fields);
  });

  it("decodes five-element metas of indexes written before access labels, without an access key", () => {
    const [decoded] = decodeChunkMeta(olderList([[2, 3, [4], [], []]]), 1);
    expect(decoded.meta).toEqual({ title: "Old", domain: "ops", keywords: ["deploy"], entities: [], aliases: [] });
    expect(decoded.meta).not.toHaveProperty("access");
    expect(decoded).toMatchObject({ source: "old.md#top", file: "old.md", title: "Old", breadcrumb: ["Old"] });
  });

  it("decodes a list mixing older and newer metas", () => {
    const bytes = Buffer.from(
      JSON.stringify({
        format: "lookup-knowledge-chunks",
        version: 1,
        strings: ["a#1", "a", "b#1", "b", "ops"],
        metas: [
          [-1, -1, [], [], []],
          [-1, -1, [], [], [], [4]],
        ],
        chunks: [0, 1, -1, 0, 0, 2, 3, -1, 1, 0],
      }),
    );
    expect(decodeChunkMeta(bytes, 2).map(({ meta }) => meta.access)).toEqual([undefined, ["ops"]]);
  });

  it.each([
    ["a meta of four elements", [[2, 3, [4], []]]],
    ["a meta of seven elements", [[2, 3, [4], [], [], [], []]]],
    ["an access entry that is not a list", [[2, 3, [4], [], [], 4]]],
    ["an access entry naming a string the table does not hold", [[2, 3, [4], [], [], [99]]]],
    ["an access entry holding an absent string", [[2, 3, [4], [], [], [-1]]]],
  ])("refuses %s as INDEX_CORRUPT", (_label, metas) => {
    expect(corruptCode(olderList(metas), 1)).toBe("INDEX_CORRUPT");
  });
});
