import { createHash } from "node:crypto";
import { readFile, truncate, writeFile, copyFile } from "node:fs/promises";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRetrievalGraph, KnowledgeBase } from "../../src/index.js";
import { createTempDirs, KB_DIR } from "../integration/helpers/integration-fixtures.js";

interface Manifest {
  generation: string;
  checksums: Record<string, string>;
  crc32?: Record<string, string>;
  heads?: Record<string, { size: number; bytes: number; crc32: string }>;
}

const temp = createTempDirs("lookup-knowledge-checksums-");
let built: KnowledgeBase;
beforeAll(async () => {
  built = await KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} });
});
afterAll(() => temp.cleanup());

const hex = (data: Uint8Array) => crc32(data).toString(16).padStart(8, "0");
const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");
const readManifest = async (dir: string) => JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as Manifest;
const writeManifest = (dir: string, manifest: Manifest) =>
  writeFile(join(dir, "manifest.json"), JSON.stringify(manifest));
const partPath = (dir: string, manifest: Manifest, name: string) => join(dir, manifest.generation, name);

async function savedIndex(): Promise<{ dir: string; manifest: Manifest }> {
  const dir = await temp.make();
  await built.save(dir);
  return { dir, manifest: await readManifest(dir) };
}

async function flipByte(path: string, at = 100): Promise<Buffer> {
  const data = await readFile(path);
  data[at < 0 ? data.length + at : at % data.length] ^= 0xff;
  await writeFile(path, data);
  return data;
}

const corrupt = (name: string) => ({
  code: "INDEX_CORRUPT",
  message: expect.stringContaining(`file ${name} is corrupted (checksum mismatch)`),
});

describe("the checksums of a saved index", () => {
  it("record a CRC-32 and a SHA-256 of every data file, matching its bytes", async () => {
    const { dir, manifest } = await savedIndex();
    expect(Object.keys(manifest.crc32 ?? {}).sort()).toEqual(Object.keys(manifest.checksums).sort());
    for (const name of Object.keys(manifest.checksums)) {
      const data = await readFile(partPath(dir, manifest, name));
      expect([name, manifest.crc32?.[name], manifest.checksums[name]]).toEqual([name, hex(data), sha256(data)]);
    }
  });

  it.each(["chunk-list.json", "bm25.bin", "vectors.hnsw", "vector-labels.bin", "lsa-projection.f32"])(
    "refuse a load with %s damaged by one byte, truncated, or swapped for another index's",
    async (name) => {
      const flipped = await savedIndex();
      await flipByte(partPath(flipped.dir, flipped.manifest, name));
      await expect(KnowledgeBase.load(flipped.dir)).rejects.toMatchObject(corrupt(name));

      const cut = await savedIndex();
      await truncate(partPath(cut.dir, cut.manifest, name), 64);
      await expect(KnowledgeBase.load(cut.dir)).rejects.toMatchObject(corrupt(name));

      const other = await temp.make();
      await (await KnowledgeBase.build({ corpusDir: join(KB_DIR, "billing"), onWarning: () => {} })).save(other);
      const swapped = await savedIndex();
      await copyFile(partPath(other, await readManifest(other), name), partPath(swapped.dir, swapped.manifest, name));
      await expect(KnowledgeBase.load(swapped.dir)).rejects.toMatchObject(corrupt(name));
    },
  );

  it("of an index saved before CRC-32s were recorded are its SHA-256s: it loads, damage is caught, and its next save records CRC-32s", async () => {
    const { dir, manifest } = await savedIndex();
    const { crc32: _dropped, ...older } = manifest;
    await writeManifest(dir, older);
    const loaded = await KnowledgeBase.load(dir);
    expect(loaded.chunks).toHaveLength(built.chunks.length);
    // Saved again unchanged, its files are linked from the loaded ones and get their CRC-32s.
    const again = await temp.make();
    await loaded.save(again);
    expect((await readManifest(again)).crc32).toEqual(manifest.crc32);

    await flipByte(partPath(dir, manifest, "bm25.bin"));
    await expect(KnowledgeBase.load(dir)).rejects.toMatchObject(corrupt("bm25.bin"));
  });

  it("are both checked by a load with verify: a file whose CRC-32 was rewritten to match still fails its SHA-256", async () => {
    const { dir, manifest } = await savedIndex();
    // A byte of the last chunk's compressed text, past the table of offsets.
    const data = await flipByte(partPath(dir, manifest, "contents.bin"), -3);
    await writeManifest(dir, { ...manifest, crc32: { ...manifest.crc32, "contents.bin": hex(data) } });
    await expect(KnowledgeBase.load(dir, { verify: true })).rejects.toMatchObject(corrupt("contents.bin"));
    // A plain load trusts the CRC-32 (the index folder is not defended against its own writers,
    // see DESIGN.md): contents are inflated when read, so this one opens.
    await expect(KnowledgeBase.load(dir)).resolves.toBeInstanceOf(KnowledgeBase);
  });

  it("let a load with verify read an undamaged index whole", async () => {
    const { dir } = await savedIndex();
    const verified = await KnowledgeBase.load(dir, { verify: true });
    expect(verified.fingerprint).toBe(built.fingerprint);
  });
});

describe("contents.bin, left on disk by a load", () => {
  // The sample corpus is far below the size from which "auto" leaves texts on disk.
  const ON_DISK = { texts: "disk" } as const;
  const contentsError = (detail: string) => ({ code: "INDEX_CORRUPT", message: expect.stringContaining(detail) });

  it("is recorded with its size and the CRC-32 of its head, which a load checks", async () => {
    const { dir, manifest } = await savedIndex();
    const data = await readFile(partPath(dir, manifest, "contents.bin"));
    const head = manifest.heads?.["contents.bin"];
    expect(head?.size).toBe(data.length);
    expect(head?.bytes).toBeGreaterThan(8 * built.chunks.length);
    expect(head?.bytes).toBeLessThan(data.length);
    expect(head?.crc32).toBe(hex(data.subarray(0, head?.bytes)));
    expect(Object.keys(manifest.heads ?? {})).toEqual(["contents.bin"]);

    await flipByte(partPath(dir, manifest, "contents.bin"), 100);
    await expect(KnowledgeBase.load(dir, ON_DISK)).rejects.toMatchObject(
      contentsError("contents.bin: chunk contents are corrupted (checksum mismatch of the file's head)"),
    );
  });

  it("of an index saved before heads were recorded is read whole: it loads, reads every text, and its next save records the head", async () => {
    const { dir, manifest } = await savedIndex();
    const { heads: _dropped, ...older } = manifest;
    await writeManifest(dir, older);
    const loaded = await KnowledgeBase.load(dir, ON_DISK);
    expect(loaded.chunks.map((chunk) => chunk.content)).toEqual(built.chunks.map((chunk) => chunk.content));
    const again = await temp.make();
    await loaded.save(again);
    expect((await readManifest(again)).heads).toEqual(manifest.heads);
  });

  it("refuses a load when the file is truncated or swapped for another index's", async () => {
    const cut = await savedIndex();
    await truncate(partPath(cut.dir, cut.manifest, "contents.bin"), 64);
    await expect(KnowledgeBase.load(cut.dir, ON_DISK)).rejects.toMatchObject(contentsError("(truncated or replaced)"));

    const other = await temp.make();
    await (await KnowledgeBase.build({ corpusDir: join(KB_DIR, "billing"), onWarning: () => {} })).save(other);
    const swapped = await savedIndex();
    await copyFile(
      partPath(other, await readManifest(other), "contents.bin"),
      partPath(swapped.dir, swapped.manifest, "contents.bin"),
    );
    await expect(KnowledgeBase.load(swapped.dir, ON_DISK)).rejects.toMatchObject(
      contentsError("contents.bin: chunk contents"),
    );
  });

  it("reads a chunk's text when it is asked for, and a text damaged on disk fails its digest, never answered from", async () => {
    const { dir, manifest } = await savedIndex();
    const loaded = await KnowledgeBase.load(dir, ON_DISK);
    const last = loaded.chunks.length - 1;
    // Damaged after the load: the text is read from the file, not from memory.
    await flipByte(partPath(dir, manifest, "contents.bin"), -3);
    expect(loaded.chunks[0].content).toBe(built.chunks[0].content);
    expect(() => loaded.chunks[last].content).toThrow(
      expect.objectContaining({
        code: "INDEX_CORRUPT",
        message: expect.stringMatching(/of chunk \d+ do not (inflate|match)/),
      }),
    );
    const graph = createRetrievalGraph({ knowledgeBase: loaded, tracePath: null });
    const query = built.chunks[last].content.split(/\s+/).slice(0, 12).join(" ");
    await expect(graph.invoke({ query, limit: 20 })).rejects.toMatchObject({ code: "INDEX_CORRUPT" });
    // Every byte checked: `verify` refuses it at once.
    await expect(KnowledgeBase.load(dir, { verify: true })).rejects.toMatchObject(corrupt("contents.bin"));
  });

  it("is read whole and checked against its CRC-32 by a save, which refuses a damaged text and keeps the previous index", async () => {
    const { dir, manifest } = await savedIndex();
    const loaded = await KnowledgeBase.load(dir, ON_DISK);
    const again = await temp.make();
    await loaded.save(again);
    const copied = await readManifest(again);
    expect(copied.checksums["contents.bin"]).toBe(manifest.checksums["contents.bin"]);
    expect(copied.heads).toEqual(manifest.heads);

    const damaged = await KnowledgeBase.load(dir, ON_DISK);
    await flipByte(partPath(dir, manifest, "contents.bin"), -3);
    const target = await savedIndex();
    await expect(damaged.save(target.dir)).rejects.toMatchObject(contentsError("(checksum mismatch)"));
    expect(await readManifest(target.dir)).toEqual(target.manifest);
  });
});
