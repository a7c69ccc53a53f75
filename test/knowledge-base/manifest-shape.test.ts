import { describe, expect, it } from "vitest";
import { manifestProblem } from "../../src/knowledge-base/manifest-shape.js";

const DIGEST = "a".repeat(64);

function manifest(): Record<string, unknown> {
  return {
    format: "lookup-knowledge-index",
    formatVersion: 3,
    generation: "gen-0123456789abcdef",
    createdAt: "2026-12-01T00:00:00.000Z",
    fingerprint: "sha256:0123456789abcdef",
    chunkCount: 2,
    fileCount: 1,
    domains: ["billing"],
    skipped: [{ file: "bad.md", reason: "no text" }],
    settings: {
      tokenizerVersion: 3,
      bm25: { k1: 0.9, b: 0.4 },
      hnsw: { m: 16, efConstruction: 200, randomSeed: 100 },
      embedder: { kind: "statistical-lsa", dimensions: 64 },
    },
    checksums: { "chunk-list.json": DIGEST, "contents.bin": DIGEST, "files.json": DIGEST, "bm25.bin": DIGEST, "vectors.hnsw": DIGEST },
  };
}

/** Sets `path` (dotted) in a fresh manifest; `undefined` deletes the field. */
function withField(path: string, value: unknown): Record<string, unknown> {
  const root = manifest();
  const keys = path.split(".");
  const parent = keys.slice(0, -1).reduce((node, key) => node[key] as Record<string, unknown>, root);
  const last = keys[keys.length - 1];
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return root;
}

describe("manifestProblem", () => {
  it("accepts a complete manifest, also of an L0-only index with a null dimension and a custom embedder name", () => {
    expect(manifestProblem(manifest())).toBeNull();
    expect(manifestProblem(withField("settings.embedder", { kind: "none", dimensions: null }))).toBeNull();
    expect(manifestProblem(withField("settings.embedder", { kind: "custom", name: "OpenAIEmbeddings", dimensions: 1536 }))).toBeNull();
  });

  it.each([
    ["generation", undefined],
    ["generation", "../gen-0123456789abcdef"],
    ["createdAt", 5],
    ["fingerprint", "sha256:short"],
    ["chunkCount", "2"],
    ["chunkCount", 1.5],
    ["fileCount", -1],
    ["domains", "billing"],
    ["skipped", [{ file: "a.md", reason: 3 }]],
    ["settings", null],
    ["settings.tokenizerVersion", "3"],
    ["settings.bm25", undefined],
    ["settings.bm25.b", Number.NaN],
    ["settings.hnsw.m", "16"],
    ["settings.embedder", undefined],
    ["settings.embedder.kind", "magic"],
    ["settings.embedder.name", 7],
    ["settings.embedder.dimensions", 0],
    ["checksums", []],
  ])("names the field %s when it is %j", (path, value) => {
    expect(manifestProblem(withField(path, value))).toMatch(new RegExp(`^manifest\\.json has no valid ${path.replaceAll(".", "\\.")} \\(expected `));
  });

  it("names a missing parent before its children", () => {
    expect(manifestProblem(withField("settings", undefined))).toMatch(/no valid settings \(expected an object\)/);
  });

  it.each(["../../etc/passwd", "/etc/passwd", "sub/chunks.json", "..\\chunks.json", "..", ".", "", "notes.txt", "manifest.json", "CHUNKS.JSON"])(
    "refuses the file name %j in the checksum list",
    (name) => {
      expect(manifestProblem(withField(`checksums`, { [name]: DIGEST }))).toBe(`manifest.json lists an unknown file name ${JSON.stringify(name)}`);
    },
  );

  it.each([42, "A".repeat(64), "a".repeat(63), null])("refuses the checksum %j", (digest) => {
    expect(manifestProblem(withField("checksums", { "bm25.bin": digest }))).toBe("manifest.json has an invalid checksum for bm25.bin");
  });
});
