import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeFolders } from "../src/make-folders.js";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe("makeFolders", () => {
  it("creates every missing folder of a nested path and accepts one that exists", async () => {
    const root = await mkdtemp(join(tmpdir(), "lk-folders-"));
    dirs.push(root);
    const deep = join(root, "a", "b", "c");
    await makeFolders(deep);
    await makeFolders(deep);
    expect((await stat(deep)).isDirectory()).toBe(true);
  });

  it("fails with the error of the first folder it cannot make when a part of the path is a file", async () => {
    const root = await mkdtemp(join(tmpdir(), "lk-folders-"));
    dirs.push(root);
    await writeFile(join(root, "file"), "x");
    await expect(makeFolders(join(root, "file", "sub"))).rejects.toMatchObject({ code: "ENOTDIR" });
  });

  it("fails at once under /proc, where Node's recursive mkdir never returns", async () => {
    await expect(makeFolders("/proc/lookup-knowledge-nope/x")).rejects.toMatchObject({ code: "ENOENT" });
  });
});
