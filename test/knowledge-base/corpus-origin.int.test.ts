import { cp, readFile, realpath, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KnowledgeBase, type IndexManifest } from "../../src/index.js";
import { createTempDirs, KB_DIR } from "../integration/helpers/integration-fixtures.js";
import { makeChunk } from "../helpers/retrieval-fakes.js";

const readManifest = async (dir: string) =>
  JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as IndexManifest;

describe("the corpus folder an index records", () => {
  const temp = createTempDirs();
  afterAll(() => temp.cleanup());

  it("is the corpus folder's real path and its path from the index, after a build and after a load", async () => {
    const dir = await realpath(await temp.make());
    await cp(KB_DIR, join(dir, "kb"), { recursive: true });
    const kb = await KnowledgeBase.build({ corpusDir: join(dir, "kb", "..", "kb"), embeddings: null });
    expect(kb.corpusOrigin).toEqual({ root: join(dir, "kb") });
    await kb.save(join(dir, "project", "index"));
    expect((await readManifest(join(dir, "project", "index"))).corpus).toEqual({
      root: join(dir, "kb"),
      fromIndex: "../../kb",
    });
    const loaded = await KnowledgeBase.load(join(dir, "project", "index"));
    expect(loaded.corpusOrigin).toEqual({ root: join(dir, "kb"), fromIndex: "../../kb" });
    expect(loaded.indexedFiles?.map((file) => file.file)).toEqual(kb.indexedFiles?.map((file) => file.file));
    expect(loaded.indexedFiles?.every((file) => /^[0-9a-f]{64}$/.test(file.sha256))).toBe(true);
  });

  it("follows the folder an update read, so that an index updated after a move records where its corpus is now", async () => {
    const dir = await realpath(await temp.make());
    await cp(KB_DIR, join(dir, "kb"), { recursive: true });
    const index = join(dir, "index");
    await (await KnowledgeBase.build({ corpusDir: join(dir, "kb"), embeddings: null })).save(index);
    await rename(join(dir, "kb"), join(dir, "docs"));
    const { knowledgeBase } = await (await KnowledgeBase.load(index)).update({ corpusDir: join(dir, "docs") });
    await knowledgeBase.save(index);
    expect((await readManifest(index)).corpus).toEqual({ root: join(dir, "docs"), fromIndex: "../docs" });
  });

  it("is absent for a base built from ready-made chunks", async () => {
    const kb = await KnowledgeBase.fromChunks([makeChunk("a.md#top", { content: "refund approval limits" })], {
      embeddings: null,
    });
    expect(kb.corpusOrigin).toBeNull();
    expect(kb.indexedFiles).toBeNull();
    const index = join(await temp.make(), "index");
    await kb.save(index);
    expect((await readManifest(index)).corpus).toBeUndefined();
  });

  it("is unknown, not an error, for an index saved before the folder was recorded", async () => {
    const index = join(await temp.make(), "index");
    await (await KnowledgeBase.build({ corpusDir: KB_DIR, embeddings: null })).save(index);
    const { corpus: _dropped, ...old } = await readManifest(index);
    await writeFile(join(index, "manifest.json"), `${JSON.stringify(old, null, 2)}\n`);
    const loaded = await KnowledgeBase.load(index);
    expect(loaded.corpusOrigin).toBeNull();
    expect(loaded.indexedFiles?.length).toBeGreaterThan(0);
  });
});
