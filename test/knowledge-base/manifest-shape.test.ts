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
    checksums: {
      "chunk-list.json": DIGEST,
      "contents.bin": DIGEST,
      "files.json": DIGEST,
      "bm25.bin": DIGEST,
      "vectors.hnsw": DIGEST,
    },
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
    expect(
      manifestProblem(withField("settings.embedder", { kind: "custom", name: "OpenAIEmbeddings", dimensions: 1536 })),
    ).toBeNull();
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
    expect(manifestProblem(withField("calibration", undefined))).toBe(
      "manifest.json has no valid calibration (expected an object)",
    );
  });

  it("refuses a calibration whose l0Weight is 7, naming the field and its range", () => {
    expect(manifestProblem(withField("calibration.l0Weight", 7))).toBe(
      "manifest.json has no valid calibration.l0Weight (expected a number from 0 to 1)",
    );
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
    expect(manifestProblem(withField(path, value))).toMatch(
      new RegExp(`^manifest\\.json has no valid ${path.replaceAll(".", "\\.")} \\(expected `),
    );
  });

  it("names a missing parent before its children", () => {
    expect(manifestProblem(withField("settings", undefined))).toMatch(/no valid settings \(expected an object\)/);
  });

  it.each([
    "../../etc/passwd",
    "/etc/passwd",
    "sub/chunks.json",
    "..\\chunks.json",
    "..",
    ".",
    "",
    "notes.txt",
    "manifest.json",
    "CHUNKS.JSON",
  ])("refuses the file name %j in the checksum list", (name) => {
    expect(manifestProblem(withField(`checksums`, { [name]: DIGEST }))).toBe(
      `manifest.json lists an unknown file name ${JSON.stringify(name)}`,
    );
  });

  it.each([42, "A".repeat(64), "a".repeat(63), null])("refuses the checksum %j", (digest) => {
    expect(manifestProblem(withField("checksums", { "bm25.bin": digest }))).toBe(
      "manifest.json has an invalid checksum for bm25.bin",
    );
  });
});

describe("manifestProblem on the vectorStore record", () => {
  const ROW_ID = "6f1c0d3e-2b4a-4c5d-8e9f-0a1b2c3d4e5f";
  const PG_STORE = {
    dialect: "pgvector",
    target: { schema: null, table: "lookup_knowledge_chunks", collection: null },
    namespace: "default",
    generation: "0123456789abcdef",
    pendingDeletes: [ROW_ID],
  };
  const INCOMPLETE =
    "manifest.json has an incomplete vectorStore (expected dialect, target, namespace, generation and pendingDeletes)";
  const BAD_TARGET =
    "manifest.json has no valid vectorStore.target (expected an object of at most 16 identifier-named strings, numbers and nulls)";

  /** A fresh manifest whose vectorStore is `store` (left out when undefined). */
  function withStore(store: unknown): Record<string, unknown> {
    return withField("vectorStore", store);
  }

  /** PG_STORE with `fields` changed; a field set to undefined is left out. */
  function storeWith(fields: Record<string, unknown>): Record<string, unknown> {
    const store: Record<string, unknown> = { ...PG_STORE, ...fields };
    for (const [key, value] of Object.entries(fields)) if (value === undefined) delete store[key];
    return store;
  }

  it("accepts a manifest without vectorStore (L1 in the HNSW graph)", () => {
    expect(manifestProblem(withStore(undefined))).toBeNull();
  });

  it.each<[string, unknown]>([
    ["a pgvector record with null fields and a pending delete", PG_STORE],
    [
      "a record with an empty target and nothing pending",
      storeWith({ dialect: "memory", target: {}, pendingDeletes: [] }),
    ],
    ["a target with a number", storeWith({ dialect: "qdrant", target: { collection: "kb", port: 6333 } })],
    [
      "a target of 16 fields",
      storeWith({ target: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`f${i}`, i])) }),
    ],
    ["a target string of exactly 1000 characters", storeWith({ dialect: "x", target: { url: "u".repeat(1000) } })],
    ["a dialect name of exactly 64 characters", storeWith({ dialect: "d".repeat(64) })],
    ["a dialect name with digits, _ and -", storeWith({ dialect: "my-store_2" })],
    ["a namespace of exactly 64 characters", storeWith({ namespace: "n".repeat(64) })],
    ["a namespace with capitals, digits, _, . and -", storeWith({ namespace: "Handbook-2.prod_eu" })],
    ["several pending deletes", storeWith({ pendingDeletes: [ROW_ID, "0b7e2f4a-9c1d-4e3f-8a5b-6c7d8e9f0a1b"] })],
    [
      "a revision and rows kept for an earlier commit",
      storeWith({ revision: 3, retained: [{ generation: "fedcba9876543210", pendingDeletes: [ROW_ID] }] }),
    ],
    ["an empty retained list", storeWith({ revision: 0, retained: [] })],
  ])("accepts %s", (_name, store) => {
    expect(manifestProblem(withStore(store))).toBeNull();
  });

  it.each(["dialect", "target", "namespace", "generation", "pendingDeletes"])(
    "refuses a record without %s as incomplete, naming every field it needs",
    (field) => {
      expect(manifestProblem(withStore(storeWith({ [field]: undefined })))).toBe(INCOMPLETE);
    },
  );

  it.each<[string, unknown]>([
    [
      "the record of an index saved before namespaces and generations",
      { dialect: "pgvector", target: PG_STORE.target },
    ],
    ["an empty record", {}],
  ])("refuses %s as incomplete", (_name, store) => {
    expect(manifestProblem(withStore(store))).toBe(INCOMPLETE);
  });

  it.each<[string, unknown]>([
    ["null", null],
    ["a list", [PG_STORE]],
    ["a dialect name alone", "pgvector"],
  ])("refuses %s as the record, naming vectorStore", (_name, store) => {
    expect(manifestProblem(withStore(store))).toBe("manifest.json has no valid vectorStore (expected an object)");
  });

  it.each<[string, unknown]>([
    ["of 65 characters", "d".repeat(65)],
    ["with capitals", "PgVector"],
    ["starting with a digit", "1pg"],
    ["with a space", "pg vector"],
    ["with a newline", "pgvector\nlookup-knowledge: all good"],
    ["that is empty", ""],
    ["that is a number", 7],
    ["that is null", null],
  ])("refuses a dialect name %s, naming vectorStore.dialect", (_name, dialect) => {
    expect(manifestProblem(withStore(storeWith({ dialect })))).toBe(
      "manifest.json has no valid vectorStore.dialect (expected a dialect name (a-z, 0-9, _, -))",
    );
  });

  it.each<[string, unknown]>([
    ["an object value", { table: { name: "lookup_knowledge_chunks" } }],
    ["a list value", { tables: ["a", "b"] }],
    ["a boolean value", { ssl: true }],
    ["a string value over 1000 characters", { url: "u".repeat(1001) }],
    ["17 fields", Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`f${i}`, i]))],
    ["a field name that is not an identifier", { "table name": "lookup_knowledge_chunks" }],
    ["a field name of 33 characters", { ["k".repeat(33)]: 1 }],
    ["a field name carrying SQL", { 'x"); DROP TABLE users; --': 1 }],
    ["a list instead of an object", ["lookup_knowledge_chunks"]],
    ["a string instead of an object", "lookup_knowledge_chunks"],
    ["null instead of an object", null],
  ])("refuses a target with %s, naming vectorStore.target", (_name, target) => {
    expect(manifestProblem(withStore(storeWith({ target })))).toBe(BAD_TARGET);
  });

  it.each<[string, unknown]>([
    ["empty", ""],
    ["of 65 characters", "n".repeat(65)],
    ["with a slash", "kb/one"],
    ["with a space", "kb one"],
    ["a number", 7],
    ["null", null],
  ])("refuses a namespace that is %s, naming vectorStore.namespace", (_name, namespace) => {
    expect(manifestProblem(withStore(storeWith({ namespace })))).toBe(
      "manifest.json has no valid vectorStore.namespace (expected a namespace (1-64 letters, digits, _, ., -))",
    );
  });

  it.each<[string, unknown]>([
    ["in capitals", "0123456789ABCDEF"],
    ["of 15 digits", "0123456789abcde"],
    ["of 17 digits", "0123456789abcdef0"],
    ["not hex", "0123456789abcdeg"],
    ["the index folder's generation name", "gen-0123456789abcdef"],
    ["a number", 1234567890123456],
    ["null", null],
  ])("refuses a row generation %s, naming vectorStore.generation", (_name, generation) => {
    expect(manifestProblem(withStore(storeWith({ generation })))).toBe(
      "manifest.json has no valid vectorStore.generation (expected 16 hex digits)",
    );
  });

  it.each<[string, unknown]>([
    ["a single id instead of a list", ROW_ID],
    ["a list with a number", [7]],
    ["a list with null", [ROW_ID, null]],
    ["an id that is not a UUID", ["row-1"]],
    ["an id in capitals", [ROW_ID.toUpperCase()]],
    ["an id with SQL after it", [`${ROW_ID}'); DROP TABLE users; --`]],
    ["an id without dashes", [ROW_ID.replaceAll("-", "")]],
    ["null", null],
  ])("refuses pendingDeletes that are %s, naming vectorStore.pendingDeletes", (_name, pendingDeletes) => {
    expect(manifestProblem(withStore(storeWith({ pendingDeletes })))).toBe(
      "manifest.json has no valid vectorStore.pendingDeletes (expected a list of row ids (UUIDs))",
    );
  });

  it("names a bad field before saying the record is incomplete", () => {
    expect(manifestProblem(withStore({ dialect: "Bad Name", target: {} }))).toMatch(/no valid vectorStore\.dialect/);
  });

  it("accepts a manifest with the corpus folder it was built from, and one without it (saved before it was recorded)", () => {
    expect(manifestProblem(withField("corpus", { root: "/home/me/docs", fromIndex: "../../docs" }))).toBeNull();
    expect(manifestProblem(withField("corpus", { root: "/home/me/docs", fromIndex: "." }))).toBeNull();
    expect(manifestProblem(withField("corpus", undefined))).toBeNull();
  });

  it("refuses a corpus folder that is relative, or a path from the index that is absolute, naming the field", () => {
    for (const corpus of [
      { root: "docs", fromIndex: "../docs" },
      { root: "/docs", fromIndex: "/docs" },
      { root: "/docs" },
      "/docs",
      null,
    ]) {
      expect(manifestProblem(withField("corpus", corpus))).toMatch(
        /no valid corpus \(expected an object with an absolute root/,
      );
    }
  });
});

describe("manifestProblem on the rows a vectorStore record keeps for replicas", () => {
  const ROW_ID = "6f1c0d3e-2b4a-4c5d-8e9f-0a1b2c3d4e5f";
  const STORE = {
    dialect: "pgvector",
    target: {},
    namespace: "default",
    generation: "0123456789abcdef",
    pendingDeletes: [],
  };
  const withStore = (fields: Record<string, unknown>) => withField("vectorStore", { ...STORE, ...fields });
  const RETAINED =
    "manifest.json has no valid vectorStore.retained (expected a list of at most 100 { generation: 16 hex digits, pendingDeletes: row ids })";

  it.each<[string, unknown]>([
    ["not a list", { generation: "fedcba9876543210", pendingDeletes: [] }],
    ["an entry without pendingDeletes", [{ generation: "fedcba9876543210" }]],
    ["an entry whose generation is not 16 hex digits", [{ generation: "gen-fedcba9876543210", pendingDeletes: [] }]],
    ["an entry with a row id that is not a UUID", [{ generation: "fedcba9876543210", pendingDeletes: ["row-1"] }]],
    [
      "more entries than keepGenerations allows",
      Array.from({ length: 101 }, () => ({ generation: "fedcba9876543210", pendingDeletes: [ROW_ID] })),
    ],
  ])("refuses a retained list that is %s", (_name, retained) => {
    expect(manifestProblem(withStore({ retained }))).toBe(RETAINED);
  });

  it.each([-1, 1.5, "2", null])("refuses the revision %j", (revision) => {
    expect(manifestProblem(withStore({ revision }))).toBe(
      "manifest.json has no valid vectorStore.revision (expected a count)",
    );
  });
});

describe("manifestProblem on the CRC-32 list", () => {
  const crcs = (names: string[], value = "0badc0de") => Object.fromEntries(names.map((name) => [name, value]));
  const names = () => Object.keys(manifest().checksums as Record<string, string>);

  it("accepts a manifest with a CRC-32 for every listed file, and one without the list (saved before it was recorded)", () => {
    expect(manifestProblem(withField("crc32", crcs(names())))).toBeNull();
    expect(manifestProblem(manifest())).toBeNull();
  });

  it("refuses a CRC-32 list that leaves out a file or adds one, or a CRC-32 that is not 8 hex digits", () => {
    expect(manifestProblem(withField("crc32", crcs(names().slice(1))))).toMatch(/crc32 list whose files differ/);
    expect(manifestProblem(withField("crc32", crcs([...names().slice(1), "notes.txt"])))).toMatch(
      /crc32 list whose files differ/,
    );
    expect(manifestProblem(withField("crc32", crcs(names(), "0BADC0DE")))).toMatch(/invalid CRC-32 for chunk-list/);
    expect(manifestProblem(withField("crc32", crcs(names(), "123")))).toMatch(/invalid CRC-32/);
    expect(manifestProblem(withField("crc32", []))).toMatch(/no valid crc32/);
  });
});

describe("manifestProblem on the heads of files a load leaves on disk", () => {
  const head = { size: 5000, bytes: 120, crc32: "0badc0de" };

  it("accepts a head of a listed file, and a manifest without heads (saved before they were recorded)", () => {
    expect(manifestProblem(withField("heads", { "contents.bin": head }))).toBeNull();
    expect(manifestProblem(withField("heads", { "contents.bin": { ...head, bytes: 5000 } }))).toBeNull();
    expect(manifestProblem(manifest())).toBeNull();
  });

  it("refuses a head of a file it does not list, one longer than its file, or one without a valid CRC-32", () => {
    expect(manifestProblem(withField("heads", { "notes.txt": head }))).toMatch(
      /head for notes\.txt, which it does not list/,
    );
    expect(manifestProblem(withField("heads", { "contents.bin": { ...head, bytes: 5001 } }))).toMatch(
      /invalid head for contents\.bin/,
    );
    expect(manifestProblem(withField("heads", { "contents.bin": { ...head, size: -1 } }))).toMatch(/invalid head/);
    expect(manifestProblem(withField("heads", { "contents.bin": { ...head, crc32: "BAD" } }))).toMatch(/invalid head/);
    expect(manifestProblem(withField("heads", { "contents.bin": "0badc0de" }))).toMatch(/invalid head/);
    expect(manifestProblem(withField("heads", []))).toMatch(/no valid heads/);
  });
});
