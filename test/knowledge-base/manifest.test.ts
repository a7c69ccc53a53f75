import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { contentDigest } from "../../src/knowledge-base/content-digest.js";
import { fingerprintOf, INDEX_FORMAT_VERSION, type IndexSettings } from "../../src/knowledge-base/manifest.js";
import type { Chunk, DocumentMeta } from "../../src/types.js";

const SETTINGS: IndexSettings = {
  tokenizerVersion: 1,
  bm25: { k1: 0.9, b: 0.4 },
  hnsw: { m: 16, efConstruction: 200, randomSeed: 100 },
  embedder: { kind: "none", dimensions: null },
};

/** The fingerprint as documented: SHA-256 over the settings and `[source, breadcrumb, meta, digest]` of each chunk. */
function reference(chunks: readonly Chunk[], settings: IndexSettings): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify({ formatVersion: INDEX_FORMAT_VERSION, settings }));
  for (const chunk of chunks)
    hash.update(
      JSON.stringify([chunk.source, chunk.breadcrumb, chunk.meta, Buffer.from(contentDigest(chunk)).toString("hex")]),
    );
  return `sha256:${hash.digest("hex").slice(0, 16)}`;
}

describe("fingerprintOf", () => {
  it("hashes each chunk's source, breadcrumb, frontmatter and content digest, whether the frontmatter is shared or not", () => {
    const shared: DocumentMeta = {
      title: "Zugriff — ключ 🔑",
      domain: "it",
      keywords: ['say "hi"', "a\\b"],
      entities: ["\u2028"],
      aliases: [],
    };
    const chunks: Chunk[] = Array.from({ length: 3000 }, (_, i) => ({
      source: `guide-${i % 40}.md#s${i}`,
      file: `guide-${i % 40}.md`,
      breadcrumb: ["Zugriff — ключ 🔑", `Section ${i} "quoted"`],
      content: `text ${i} ${"x".repeat(i % 50)}`,
      meta: i % 3 === 0 ? shared : { keywords: [`k${i % 7}`], entities: [], aliases: ["alias"] },
    }));
    expect(fingerprintOf(chunks, SETTINGS)).toBe(reference(chunks, SETTINGS));
    expect(fingerprintOf([], SETTINGS)).toBe(reference([], SETTINGS));
  });

  it("changes when one chunk's content, frontmatter or settings change", () => {
    const chunk = (content: string, meta: DocumentMeta): Chunk => ({
      source: "a.md#top",
      file: "a.md",
      breadcrumb: ["A"],
      content,
      meta,
    });
    const meta: DocumentMeta = { keywords: [], entities: [], aliases: [] };
    const base = fingerprintOf([chunk("x", meta)], SETTINGS);
    expect(fingerprintOf([chunk("y", meta)], SETTINGS)).not.toBe(base);
    expect(fingerprintOf([chunk("x", { ...meta, domain: "d" })], SETTINGS)).not.toBe(base);
    expect(fingerprintOf([chunk("x", meta)], { ...SETTINGS, bm25: { k1: 1.2, b: 0.4 } })).not.toBe(base);
  });
});
