import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnowledgeBase } from "../../src/index.js";
import { decodeVectorLabels } from "../../src/l1/vector-labels.js";
import { createTempDirs, KB_DIR } from "../integration/helpers/integration-fixtures.js";
import { toPreviousVectorLayout } from "../helpers/previous-vector-layout.js";

interface Manifest {
  generation: string;
  chunkCount: number;
  checksums: Record<string, string>;
  crc32?: Record<string, string>;
}

const temp = createTempDirs("lookup-knowledge-vector-labels-");
let built: KnowledgeBase;
beforeAll(async () => {
  built = await KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} });
});
afterAll(() => temp.cleanup());

const hex = (data: Uint8Array) => crc32(data).toString(16).padStart(8, "0");
const readManifest = async (dir: string) => JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as Manifest;
const part = (dir: string, manifest: Manifest, name: string) => join(dir, manifest.generation, name);
const QUESTION = "Who can approve a large refund?";
async function answer(kb: KnowledgeBase): Promise<unknown[]> {
  const sources = (await kb.asRetriever().invoke(QUESTION)).map((document) => document.metadata.source as unknown);
  expect(sources.length).toBeGreaterThan(0);
  return sources;
}

describe("the vector label map", () => {
  it("is saved as its own file, so that vectors.hnsw is hnswlib's file alone", async () => {
    const dir = await temp.make();
    await built.save(dir);
    const manifest = await readManifest(dir);
    const labels = decodeVectorLabels(await readFile(part(dir, manifest, "vector-labels.bin")));
    expect(labels.graph).toHaveLength(0);
    expect(labels.chunkOfLabel).toHaveLength(manifest.chunkCount);
    expect(decodeVectorLabels(await readFile(part(dir, manifest, "vectors.hnsw"))).chunkOfLabel).toBeNull();
  });

  it("of an index of the previous layout, appended to vectors.hnsw, still loads, answers the same, and is saved in the new layout", async () => {
    const dir = await temp.make();
    await built.save(dir);
    await toPreviousVectorLayout(dir);
    const loaded = await KnowledgeBase.load(dir);
    expect(await answer(loaded)).toEqual(await answer(built));
    const again = await temp.make();
    await loaded.save(again);
    expect(Object.keys((await readManifest(again)).checksums)).toContain("vector-labels.bin");
    expect(await answer(await KnowledgeBase.load(again))).toEqual(await answer(built));
  });

  it("leaves the generation's vectors.hnsw unchanged and no scratch folder behind after a load", async () => {
    const dir = await temp.make();
    await built.save(dir);
    const manifest = await readManifest(dir);
    const before = await readFile(part(dir, manifest, "vectors.hnsw"));
    expect(await answer(await KnowledgeBase.load(dir))).toEqual(await answer(built));
    expect((await readFile(part(dir, manifest, "vectors.hnsw"))).equals(before)).toBe(true);
    expect((await readdir(dir)).filter((name) => name.includes("scratch"))).toEqual([]);
  });

  it("does not let a vectors.hnsw whose CRC-32 was rewritten to match pass a load with verify", async () => {
    const dir = await temp.make();
    await built.save(dir);
    const manifest = await readManifest(dir);
    const path = part(dir, manifest, "vectors.hnsw");
    const data = await readFile(path);
    data[data.length - 5] ^= 0xff;
    await writeFile(path, data);
    await writeFile(
      join(dir, "manifest.json"),
      JSON.stringify({ ...manifest, crc32: { ...manifest.crc32, "vectors.hnsw": hex(data) } }),
    );
    await expect(KnowledgeBase.load(dir, { verify: true })).rejects.toMatchObject({
      code: "INDEX_CORRUPT",
      message: expect.stringContaining("file vectors.hnsw is corrupted (checksum mismatch)"),
    });
  });
});
