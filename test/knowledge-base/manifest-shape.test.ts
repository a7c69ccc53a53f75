import { describe, expect, it } from "vitest";
import { defaultCalibration } from "../../src/calibration/calibration.js";
import { manifestProblem } from "../../src/knowledge-base/manifest-shape.js";
import { INDEX_FORMAT_VERSION } from "../../src/knowledge-base/manifest.js";

const DIGEST = "a".repeat(64);

function manifest(): Record<string, unknown> {
  return {
    format: "lookup-knowledge-index",
    formatVersion: INDEX_FORMAT_VERSION,
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
    calibration: defaultCalibration("fewer than 30 chunks"),
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

  it("accepts a measured calibration with its figures and a null note", () => {
    const measured = {
      source: "measured",
      note: null,
      pseudoQueries: 200,
      l0Weight: 0.65,
      relevance: { strongCoverage: 0.7, partialCoverage: 0.4, semanticSupport: 0.25, strongSimilarity: 0.6 },
      measured: { mrr: { l0: 0.5, l1: 0.4, fused: 0.6 } },
    };
    expect(manifestProblem(withField("calibration", measured))).toBeNull();
  });

  it("refuses a manifest without a calibration, naming the field", () => {
    expect(manifestProblem(withField("calibration", undefined))).toBe("manifest.json has no valid calibration (expected an object)");
  });

  it("refuses a calibration whose l0Weight is 7, naming the field and its range", () => {
    expect(manifestProblem(withField("calibration.l0Weight", 7))).toBe("manifest.json has no valid calibration.l0Weight (expected a number from 0 to 1)");
  });

  it.each(["strongCoverage", "partialCoverage", "semanticSupport", "strongSimilarity"])(
    "refuses a calibrated relevance.%s of 2, naming the field and its range",
    (key) => {
      expect(manifestProblem(withField(`calibration.relevance.${key}`, 2))).toBe(
        `manifest.json has no valid calibration.relevance.${key} (expected a number from -1 to 1)`,
      );
    },
  );

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
    ["calibration", null],
    ["calibration.source", "guessed"],
    ["calibration.note", 3],
    ["calibration.pseudoQueries", -1],
    ["calibration.l0Weight", -0.1],
    ["calibration.relevance", undefined],
    ["calibration.relevance.partialCoverage", "0.35"],
    ["calibration.measured", undefined],
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
