import { cp, readFile, rm, writeFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnowledgeBase, type Chunk, type IndexManifest } from "../../src/index.js";
import { fingerprintOf } from "../../src/knowledge-base/manifest.js";
import { VectorIndex } from "../../src/l1/vector-index.js";
import { createTempDirs, expectLookupError, KB_DIR } from "./helpers/integration-fixtures.js";

const ADVICE = "lookup-knowledge index";
const GARBAGE = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256));

/** A manifest as parsed JSON, to be damaged field by field. */
type RawManifest = Record<string, unknown> & { settings: Record<string, unknown>; checksums: Record<string, unknown> };

async function readManifest(dir: string): Promise<IndexManifest> {
  return JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as IndexManifest;
}

async function editManifest(dir: string, edit: (manifest: RawManifest) => void): Promise<void> {
  const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as RawManifest;
  edit(manifest);
  await writeFile(join(dir, "manifest.json"), JSON.stringify(manifest));
}

/** Where a data file of the saved index lives: in the generation folder the manifest names. */
async function dataPath(dir: string, name: string): Promise<string> {
  const { generation } = (await readManifest(dir)) as IndexManifest & { generation?: string };
  return generation === undefined ? join(dir, name) : join(dir, generation, name);
}

function sha256(data: Buffer | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Rewrites a data file and its checksum, so that the bytes reach the parser (or hnswlib) itself. */
async function replaceWithValidChecksum(dir: string, name: string, data: Buffer | string): Promise<void> {
  await writeFile(await dataPath(dir, name), data);
  await editManifest(dir, (manifest) => {
    manifest.checksums[name] = sha256(data);
  });
}

/** Rewrites chunks.json with a valid checksum and, unlike an accident, a matching fingerprint. */
async function replaceChunksWithValidFingerprint(dir: string, chunks: unknown[]): Promise<void> {
  await replaceWithValidChecksum(dir, "chunks.json", JSON.stringify(chunks));
  await editManifest(dir, (manifest) => {
    manifest.fingerprint = fingerprintOf(chunks as Chunk[], manifest.settings as unknown as IndexManifest["settings"]);
  });
}

async function savedChunks(dir: string): Promise<Record<string, unknown>[]> {
  return JSON.parse(await readFile(await dataPath(dir, "chunks.json"), "utf8")) as Record<string, unknown>[];
}

/** Ways to damage a saved index, and what the error must name; each must end in INDEX_CORRUPT. */
const CORRUPTIONS: [string, (dir: string) => Promise<void>, RegExp][] = [
  ["vectors.hnsw overwritten with garbage bytes", async (dir) => writeFile(await dataPath(dir, "vectors.hnsw"), GARBAGE), /vectors\.hnsw is corrupted/],
  [
    "chunks.json truncated",
    async (dir) => {
      const file = await dataPath(dir, "chunks.json");
      const text = await readFile(file, "utf8");
      await writeFile(file, text.slice(0, Math.floor(text.length / 2)));
    },
    /chunks\.json is corrupted/,
  ],
  ["manifest.json replaced by garbage", (dir) => writeFile(join(dir, "manifest.json"), GARBAGE), /manifest\.json is not valid JSON/],
  [
    "manifest.json valid JSON of another format",
    (dir) => writeFile(join(dir, "manifest.json"), JSON.stringify({ format: "something-else", formatVersion: 1 })),
    /not a version \d+ lookup-knowledge index/,
  ],
  ["keyword-index.json deleted", async (dir) => rm(await dataPath(dir, "keyword-index.json")), /keyword-index\.json is missing/],
  ["vectors.hnsw garbage behind an updated checksum (reaches hnswlib)", (dir) => replaceWithValidChecksum(dir, "vectors.hnsw", GARBAGE), /vector index does not load/],
  [
    "vectors.hnsw truncated behind an updated checksum (reaches hnswlib)",
    async (dir) => replaceWithValidChecksum(dir, "vectors.hnsw", (await readFile(await dataPath(dir, "vectors.hnsw"))).subarray(0, 300)),
    /vector index does not load/,
  ],
  [
    "chunks.json truncated behind an updated checksum (reaches JSON.parse)",
    async (dir) => replaceWithValidChecksum(dir, "chunks.json", (await readFile(await dataPath(dir, "chunks.json"), "utf8")).slice(0, 500)),
    /chunks\.json is not valid JSON/,
  ],
  ["chunks.json holding fewer chunks than the manifest", (dir) => replaceWithValidChecksum(dir, "chunks.json", "[]"), /does not match the manifest/],
  [
    "vectors.hnsw of another corpus (fewer vectors) behind an updated checksum",
    async (dir) => {
      const { dimensions } = (await readManifest(dir)).settings.embedder;
      const other = VectorIndex.build([unitVector(dimensions, 0), unitVector(dimensions, 1)], ["a", "b"]);
      await other.save(join(dir, "other.hnsw"));
      await replaceWithValidChecksum(dir, "vectors.hnsw", await readFile(join(dir, "other.hnsw")));
    },
    /holds 2 vectors for \d+ chunks/,
  ],
  // The manifest's shape: every field checked before it is used.
  ["manifest.json without settings.embedder", (dir) => editManifest(dir, (m) => delete m.settings.embedder), /manifest\.json.*settings\.embedder/],
  ["manifest.json with settings.embedder.dimensions a string", (dir) => editManifest(dir, (m) => ((m.settings.embedder as Record<string, unknown>).dimensions = "64")), /settings\.embedder\.dimensions/],
  ["manifest.json with an unknown embedder kind", (dir) => editManifest(dir, (m) => ((m.settings.embedder as Record<string, unknown>).kind = "magic")), /settings\.embedder\.kind/],
  ["manifest.json without settings", (dir) => editManifest(dir, (m) => delete (m as Record<string, unknown>).settings), /manifest\.json.*settings/],
  ["manifest.json without settings.hnsw", (dir) => editManifest(dir, (m) => delete m.settings.hnsw), /settings\.hnsw/],
  ["manifest.json with settings.bm25.k1 a string", (dir) => editManifest(dir, (m) => ((m.settings.bm25 as Record<string, unknown>).k1 = "0.9")), /settings\.bm25\.k1/],
  ["manifest.json with chunkCount a string", (dir) => editManifest(dir, (m) => (m.chunkCount = "33")), /chunkCount/],
  ["manifest.json with a negative fileCount", (dir) => editManifest(dir, (m) => (m.fileCount = -1)), /fileCount/],
  ["manifest.json with domains not a list of strings", (dir) => editManifest(dir, (m) => (m.domains = [1, 2])), /domains/],
  ["manifest.json with a skipped entry without a reason", (dir) => editManifest(dir, (m) => (m.skipped = [{ file: "a.md" }])), /skipped/],
  ["manifest.json without a fingerprint", (dir) => editManifest(dir, (m) => delete m.fingerprint), /fingerprint/],
  ["manifest.json with checksums a list", (dir) => editManifest(dir, (m) => (m.checksums = [] as unknown as Record<string, unknown>)), /checksums/],
  ["manifest.json with a checksum that is not a SHA-256", (dir) => editManifest(dir, (m) => (m.checksums["bm25.json"] = 42)), /checksum.*bm25\.json/],
  // Names the manifest lists: only the store's own, inside the folder.
  ["manifest.json without a generation folder", (dir) => editManifest(dir, (m) => delete m.generation), /generation/],
  ["manifest.json naming a generation folder outside the index (../)", (dir) => editManifest(dir, (m) => (m.generation = "../elsewhere")), /generation/],
  ["manifest.json naming an absolute generation folder", (dir) => editManifest(dir, (m) => (m.generation = "/etc")), /generation/],
  ["manifest.json listing an unknown file name", (dir) => editManifest(dir, (m) => (m.checksums["notes.txt"] = sha256(""))), /unknown file.*notes\.txt/],
  ["manifest.json listing a file name with a folder", (dir) => editManifest(dir, (m) => (m.checksums["sub/chunks.json"] = sha256(""))), /unknown file.*sub\/chunks\.json/],
  ["manifest.json listing ..", (dir) => editManifest(dir, (m) => (m.checksums[".."] = sha256(""))), /unknown file/],
  // The chunk list: order and shape.
  [
    "chunks.json reordered behind an updated checksum (chunk numbers are positions in every index)",
    async (dir) => replaceWithValidChecksum(dir, "chunks.json", JSON.stringify((await savedChunks(dir)).reverse())),
    /chunks\.json does not match the fingerprint/,
  ],
  [
    "chunks.json with one chunk's text changed behind an updated checksum",
    async (dir) => {
      const chunks = await savedChunks(dir);
      chunks[0] = { ...chunks[0], content: "something else entirely" };
      await replaceWithValidChecksum(dir, "chunks.json", JSON.stringify(chunks));
    },
    /chunks\.json does not match the fingerprint/,
  ],
  [
    "chunks.json with a chunk without meta, behind a valid checksum and fingerprint",
    async (dir) => {
      const chunks = await savedChunks(dir);
      delete chunks[3].meta;
      await replaceChunksWithValidFingerprint(dir, chunks);
    },
    /chunks\.json: chunk 3 .*meta/,
  ],
  [
    "chunks.json with a breadcrumb that is a string, behind a valid checksum and fingerprint",
    async (dir) => {
      const chunks = await savedChunks(dir);
      chunks[1].breadcrumb = "Access > Keys";
      await replaceChunksWithValidFingerprint(dir, chunks);
    },
    /chunks\.json: chunk 1 .*breadcrumb/,
  ],
  [
    "chunks.json with meta.keywords not a list, behind a valid checksum and fingerprint",
    async (dir) => {
      const chunks = await savedChunks(dir);
      (chunks[0].meta as Record<string, unknown>).keywords = "api key";
      await replaceChunksWithValidFingerprint(dir, chunks);
    },
    /chunks\.json: chunk 0 .*meta\.keywords/,
  ],
  [
    "chunks.json with a numeric source, behind a valid checksum and fingerprint",
    async (dir) => {
      const chunks = await savedChunks(dir);
      chunks[2].source = 7;
      await replaceChunksWithValidFingerprint(dir, chunks);
    },
    /chunks\.json: chunk 2 .*source/,
  ],
];

function unitVector(dimensions: number | null, axis: number): number[] {
  return Array.from({ length: dimensions ?? 1 }, (_, i) => (i === axis ? 1 : 0));
}

describe("loading a saved index that is missing or damaged", () => {
  const temp = createTempDirs();
  let pristine: string;

  beforeAll(async () => {
    pristine = await temp.make();
    const kb = await KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} });
    await kb.save(pristine);
  });
  afterAll(() => temp.cleanup());

  it("reports INDEX_NOT_FOUND, with the command that builds it, for a folder that does not exist", async () => {
    const dir = join(await temp.make(), "no-such-index");
    const error = await expectLookupError(KnowledgeBase.load(dir), "INDEX_NOT_FOUND");
    expect(error.message).toContain(ADVICE);
    expect(error.message).toContain(dir);
  });

  it("reports INDEX_NOT_FOUND for an existing folder without a manifest", async () => {
    const dir = await temp.make();
    const error = await expectLookupError(KnowledgeBase.load(dir), "INDEX_NOT_FOUND");
    expect(error.message).toContain(ADVICE);
  });

  it("loads the undamaged copy, so that each failure below comes from its damage", async () => {
    const dir = await temp.make();
    await cp(pristine, dir, { recursive: true });
    const kb = await KnowledgeBase.load(dir);
    expect(kb.chunks.length).toBeGreaterThan(0);
    expect(kb.l1).not.toBeNull();
  });

  it.each(CORRUPTIONS)("reports INDEX_CORRUPT with rebuild advice, never a native crash, when %s", async (_name, damage, detail) => {
    const dir = await temp.make();
    await cp(pristine, dir, { recursive: true });
    await damage(dir);
    const error = await expectLookupError(KnowledgeBase.load(dir), "INDEX_CORRUPT");
    expect(error.message).toMatch(/^lookup-knowledge: /);
    expect(error.message).toContain(ADVICE);
    expect(error.message).toContain(dir);
    expect(error.message).toMatch(detail);
  });

  it("never reads a file outside the index folder that the manifest lists, even with its correct checksum", async () => {
    const parent = await temp.make();
    const dir = join(parent, "index");
    await cp(pristine, dir, { recursive: true });
    const outside = join(parent, "secret.json");
    await writeFile(outside, "{}");
    await editManifest(dir, (manifest) => {
      manifest.checksums["../secret.json"] = sha256("{}");
      manifest.checksums["../../secret.json"] = sha256("{}");
    });
    const error = await expectLookupError(KnowledgeBase.load(dir), "INDEX_CORRUPT");
    expect(error.message).toMatch(/unknown file name "\.\.\/(\.\.\/)?secret\.json"/);
    expect(error.message).toContain(ADVICE);
  });
});
