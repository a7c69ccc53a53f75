import { mkdtemp, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { linkDataFile } from "../../src/knowledge-base/link-data-file.js";

describe("linkDataFile", () => {
  const made: string[] = [];
  afterAll(async () => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));
  const folder = async () => {
    const dir = await mkdtemp(join(tmpdir(), "lk-link-"));
    made.push(dir);
    return dir;
  };

  it("gives the target the source's bytes, which it keeps when a save replaces the source by a rename", async () => {
    const dir = await folder();
    const source = join(dir, "vectors.hnsw");
    await writeFile(source, "verified graph");
    await linkDataFile(dir, "vectors.hnsw", source, join(dir, "scratch"));
    await writeFile(join(dir, "next"), "another graph");
    await rename(join(dir, "next"), source);
    expect(await readFile(join(dir, "scratch"), "utf8")).toBe("verified graph");
  });

  it("calls a source that another save removed missing, so that the load reads the new manifest", async () => {
    const dir = await folder();
    await expect(linkDataFile(dir, "vectors.hnsw", join(dir, "gone"), join(dir, "scratch"))).rejects.toMatchObject({
      code: "INDEX_CORRUPT",
      message: expect.stringContaining("file vectors.hnsw is missing"),
    });
  });

  it("refuses a symbolic link before anything is read through it", async () => {
    const dir = await folder();
    await writeFile(join(dir, "elsewhere"), "secret");
    await symlink(join(dir, "elsewhere"), join(dir, "vectors.hnsw"));
    await expect(
      linkDataFile(dir, "vectors.hnsw", join(dir, "vectors.hnsw"), join(dir, "scratch")),
    ).rejects.toMatchObject({ code: "INDEX_CORRUPT", message: expect.stringContaining("is not a regular file") });
  });
});
