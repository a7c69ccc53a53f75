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

describe("manifestProblem on the vectorStore record", () => {
  const PG_STORE = { dialect: "pgvector", target: { schema: null, table: "lookup_knowledge_chunks", collection: null } };

  /** A fresh manifest whose vectorStore is `store` (left out when undefined). */
  function withStore(store: unknown): Record<string, unknown> {
    return withField("vectorStore", store);
  }

  it("accepts a manifest without vectorStore (L1 in the HNSW graph)", () => {
    expect(manifestProblem(withStore(undefined))).toBeNull();
  });

  it.each<[string, unknown]>([
    ["a pgvector record with null fields", PG_STORE],
    ["a record with an empty target", { dialect: "memory", target: {} }],
    ["a target with a number", { dialect: "qdrant", target: { collection: "kb", port: 6333 } }],
    ["a dialect name of exactly 100 characters", { dialect: "d".repeat(100), target: {} }],
    ["a target string of exactly 1000 characters", { dialect: "x", target: { url: "u".repeat(1000) } }],
  ])("accepts %s", (_name, store) => {
    expect(manifestProblem(withStore(store))).toBeNull();
  });

  it.each<[string, unknown]>([
    ["no dialect", { target: PG_STORE.target }],
    ["no target", { dialect: "pgvector" }],
    ["neither", {}],
  ])("refuses a record with %s as incomplete", (_name, store) => {
    expect(manifestProblem(withStore(store))).toBe("manifest.json has an incomplete vectorStore (expected dialect and target)");
  });

  it.each<[string, unknown]>([
    ["null", null],
    ["a list", [PG_STORE]],
    ["a dialect name alone", "pgvector"],
  ])("refuses %s as the record, naming vectorStore", (_name, store) => {
    expect(manifestProblem(withStore(store))).toBe("manifest.json has no valid vectorStore (expected an object)");
  });

  it.each<[string, unknown]>([
    ["of 101 characters", "d".repeat(101)],
    ["that is a number", 7],
    ["that is null", null],
  ])("refuses a dialect name %s, naming vectorStore.dialect", (_name, dialect) => {
    expect(manifestProblem(withStore({ ...PG_STORE, dialect }))).toBe("manifest.json has no valid vectorStore.dialect (expected a string of at most 100 characters)");
  });

  it.each<[string, unknown]>([
    ["an object value", { table: { name: "lookup_knowledge_chunks" } }],
    ["a list value", { tables: ["a", "b"] }],
    ["a boolean value", { ssl: true }],
    ["a string value over 1000 characters", { url: "u".repeat(1001) }],
    ["a list instead of an object", ["lookup_knowledge_chunks"]],
    ["a string instead of an object", "lookup_knowledge_chunks"],
    ["null instead of an object", null],
  ])("refuses a target with %s, naming vectorStore.target", (_name, target) => {
    expect(manifestProblem(withStore({ dialect: "pgvector", target }))).toBe("manifest.json has no valid vectorStore.target (expected an object of strings, numbers and nulls)");
  });
});
