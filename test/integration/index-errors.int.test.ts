import { cp, readFile, rm, writeFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnowledgeBase, type IndexManifest } from "../../src/index.js";
import { VectorIndex } from "../../src/l1/vector-index.js";
import { createTempDirs, expectLookupError, KB_DIR } from "./helpers/integration-fixtures.js";

const ADVICE = "lookup-knowledge index";
const GARBAGE = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256));

async function readManifest(dir: string): Promise<IndexManifest> {
  return JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as IndexManifest;
}

/** Rewrites a data file and its checksum, so that the bytes reach the parser (or hnswlib) itself. */
async function replaceWithValidChecksum(dir: string, name: string, data: Buffer | string): Promise<void> {
  await writeFile(join(dir, name), data);
  const manifest = await readManifest(dir);
  manifest.checksums[name] = createHash("sha256").update(data).digest("hex");
  await writeFile(join(dir, "manifest.json"), JSON.stringify(manifest));
}

/** Ways to damage a saved index, and what the error must name; each must end in INDEX_CORRUPT. */
const CORRUPTIONS: [string, (dir: string) => Promise<void>, RegExp][] = [
  ["vectors.hnsw overwritten with garbage bytes", (dir) => writeFile(join(dir, "vectors.hnsw"), GARBAGE), /vectors\.hnsw is corrupted/],
  [
    "chunks.json truncated",
    async (dir) => {
      const text = await readFile(join(dir, "chunks.json"), "utf8");
      await writeFile(join(dir, "chunks.json"), text.slice(0, Math.floor(text.length / 2)));
    },
    /chunks\.json is corrupted/,
  ],
  ["manifest.json replaced by garbage", (dir) => writeFile(join(dir, "manifest.json"), GARBAGE), /manifest\.json is not valid JSON/],
  [
    "manifest.json valid JSON of another format",
    (dir) => writeFile(join(dir, "manifest.json"), JSON.stringify({ format: "something-else", formatVersion: 1 })),
    /not a version \d+ lookup-knowledge index/,
  ],
  ["keyword-index.json deleted", (dir) => rm(join(dir, "keyword-index.json")), /keyword-index\.json is missing/],
  ["vectors.hnsw garbage behind an updated checksum (reaches hnswlib)", (dir) => replaceWithValidChecksum(dir, "vectors.hnsw", GARBAGE), /vector index does not load/],
  [
    "vectors.hnsw truncated behind an updated checksum (reaches hnswlib)",
    async (dir) => replaceWithValidChecksum(dir, "vectors.hnsw", (await readFile(join(dir, "vectors.hnsw"))).subarray(0, 300)),
    /vector index does not load/,
  ],
  [
    "chunks.json truncated behind an updated checksum (reaches JSON.parse)",
    async (dir) => replaceWithValidChecksum(dir, "chunks.json", (await readFile(join(dir, "chunks.json"), "utf8")).slice(0, 500)),
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
});
