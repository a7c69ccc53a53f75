import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import { makeScratch, sweepDeadScratch, withScratchFile } from "../../src/knowledge-base/scratch-folders.js";

describe("scratch folders", () => {
  const made: string[] = [];
  afterAll(async () => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

  it("are named after their process, and a sweep removes only those of processes that are gone", async () => {
    const parent = await mkdtemp(join(tmpdir(), "lk-scratch-"));
    made.push(parent);
    const exited = spawnSync(process.execPath, ["-e", "0"]).pid;
    expect(exited).toBeGreaterThan(0);
    const mine = await makeScratch("p-", parent);
    expect(mine).toMatch(new RegExp(`p-${process.pid}-[^/]+$`));
    await mkdir(join(parent, `p-${exited}-killed`));
    await writeFile(join(parent, `p-${exited}-killed`, "vectors.hnsw"), "graph");
    await mkdir(join(parent, "p-1-init"));
    await mkdir(join(parent, "p-build-abc"));
    await writeFile(join(parent, `p-${exited}-file`), "not a folder");

    expect(await sweepDeadScratch("p-", parent)).toBe(1);
    expect((await readdir(parent)).sort()).toEqual(
      [mine.slice(parent.length + 1), "p-1-init", "p-build-abc", `p-${exited}-file`].sort(),
    );
  });
});

describe("a scratch file", () => {
  it("goes to the next folder when the first cannot hold it, and the scratch is removed after use", async () => {
    const parent = await mkdtemp(join(tmpdir(), "lk-scratch-file-"));
    const missing = join(parent, "missing");
    const seen = await withScratchFile([missing, parent], "s-", "graph.bin", Buffer.from("graph"), async (file) =>
      (await readFile(file, "utf8")) === "graph" ? file : "",
    );
    expect(seen.startsWith(join(parent, `s-${process.pid}-`))).toBe(true);
    expect(await readdir(parent)).toEqual([]);
    await rm(parent, { recursive: true, force: true });
  });

  it("reports SCRATCH_UNAVAILABLE naming each folder and its error when no folder works", async () => {
    const parent = await mkdtemp(join(tmpdir(), "lk-scratch-none-"));
    const missing = join(parent, "missing");
    const error = await withScratchFile([missing], "s-", "graph.bin", Buffer.from("graph"), async () => "used").catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(LookupKnowledgeError);
    expect((error as LookupKnowledgeError).code).toBe("SCRATCH_UNAVAILABLE");
    expect((error as Error).message).toContain(`${missing}: ENOENT`);
    await rm(parent, { recursive: true, force: true });
  });
});
