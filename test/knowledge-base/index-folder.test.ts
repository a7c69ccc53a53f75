import { spawnSync } from "node:child_process";
import { INDEX_FORMAT_VERSION } from "../../src/knowledge-base/manifest.js";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import {
  assertIndexFolder,
  collectGarbage,
  markWriting,
  unmarkWriting,
} from "../../src/knowledge-base/index-folder.js";
import { writerMarkerName } from "../../src/knowledge-base/index-layout.js";

const LIVE = "gen-1111111111111111";
const OLD = "gen-2222222222222222";
const OTHER = "gen-3333333333333333";

function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ["-e", ""]);
  if (pid === undefined) throw new Error("could not spawn a short-lived process");
  return pid;
}

async function manifestNaming(dir: string, generation: string, formatVersion = INDEX_FORMAT_VERSION): Promise<void> {
  await writeFile(
    join(dir, "manifest.json"),
    JSON.stringify({ format: "lookup-knowledge-index", formatVersion, generation }),
  );
}

async function makeGeneration(dir: string, name: string): Promise<void> {
  await mkdir(join(dir, name));
  await writeFile(join(dir, name, "chunks.json"), "[]");
}

describe("collectGarbage", () => {
  let dir: string;
  let removed: string[];
  const collect = () => collectGarbage(dir, (name) => removed.push(name));

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "lookup-knowledge-gc-"));
    removed = [];
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("removes generations the manifest does not name and keeps the one it names", async () => {
    await manifestNaming(dir, LIVE);
    await makeGeneration(dir, LIVE);
    await makeGeneration(dir, OLD);
    expect(await collect()).toEqual([]);
    expect(removed).toEqual([OLD]);
    expect((await readdir(dir)).sort()).toEqual([LIVE, "manifest.json"]);
  });

  it("keeps a generation another running process is writing, and removes it once that process is gone", async () => {
    await manifestNaming(dir, LIVE);
    await makeGeneration(dir, LIVE);
    await makeGeneration(dir, OTHER);
    await writeFile(join(dir, writerMarkerName(OTHER, process.ppid)), "");
    await collect();
    expect(removed).toEqual([]);

    await rm(join(dir, writerMarkerName(OTHER, process.ppid)));
    const dead = writerMarkerName(OTHER, deadPid());
    await writeFile(join(dir, dead), "");
    await collect();
    expect(removed).toEqual([OTHER, dead]);
  });

  it("keeps a generation this process is writing, and only while it writes it", async () => {
    await manifestNaming(dir, LIVE);
    await markWriting(dir, OTHER);
    await makeGeneration(dir, OTHER);
    await collect();
    expect(removed).toEqual([]);
    await unmarkWriting(dir, OTHER);
    await collect();
    expect(removed).toEqual([OTHER]);
  });

  it("removes a dead writer's marker but keeps its generation once the manifest names it (killed after the commit)", async () => {
    const marker = writerMarkerName(LIVE, deadPid());
    await manifestNaming(dir, LIVE);
    await makeGeneration(dir, LIVE);
    await writeFile(join(dir, marker), "");
    await collect();
    expect(removed).toEqual([marker]);
    expect((await readdir(dir)).sort()).toEqual([LIVE, "manifest.json"]);
  });

  it("keeps the flat layout's data files while its manifest is live, and removes them after a current manifest replaced it", async () => {
    await manifestNaming(dir, "", 1);
    await writeFile(join(dir, "chunks.json"), "[]");
    await writeFile(join(dir, "vectors.hnsw"), "x");
    await writeFile(join(dir, "chunks.json.77.tmp"), "partial");
    await collect();
    expect(removed).toEqual(["chunks.json.77.tmp"]);
    await manifestNaming(dir, LIVE);
    await makeGeneration(dir, LIVE);
    await collect();
    expect(removed).toEqual(["chunks.json.77.tmp", "chunks.json", "vectors.hnsw"]);
  });

  it("removes scratch folders and moved-aside locks of processes that are gone, and keeps this process's and the lock", async () => {
    await manifestNaming(dir, LIVE);
    await makeGeneration(dir, LIVE);
    const dead = deadPid();
    const mine = `.lookup-knowledge-scratch-${process.pid}-abc`;
    for (const name of [`.lookup-knowledge-scratch-${dead}-abc`, mine]) await mkdir(join(dir, name));
    await writeFile(join(dir, `.lookup-knowledge.lock.stale-${dead}-0a0b`), "{}");
    await writeFile(join(dir, ".lookup-knowledge.lock"), "{}");
    await collect();
    expect(removed.sort()).toEqual(
      [`.lookup-knowledge-scratch-${dead}-abc`, `.lookup-knowledge.lock.stale-${dead}-0a0b`].sort(),
    );
    expect((await readdir(dir)).sort()).toEqual([".lookup-knowledge.lock", mine, LIVE, "manifest.json"].sort());
  });

  it("never touches an entry that is not the store's own", async () => {
    await manifestNaming(dir, LIVE);
    const foreign = ["notes.txt", "gen-notes", "chunks.json.backup", "index.html", "gen-2222222222222222.bak"];
    for (const name of foreign) await writeFile(join(dir, name), "mine");
    await collect();
    expect(removed).toEqual([]);
    expect((await readdir(dir)).sort()).toEqual([...foreign, "manifest.json"].sort());
  });

  it("removes no generation while the manifest cannot be parsed, and all but the live one once it can", async () => {
    await writeFile(join(dir, "manifest.json"), "{ damaged");
    await makeGeneration(dir, OLD);
    await makeGeneration(dir, LIVE);
    await writeFile(join(dir, "chunks.json"), "[]");
    await collect();
    expect(removed).toEqual([]);
    await manifestNaming(dir, LIVE);
    await collect();
    expect(removed).toEqual(["chunks.json", OLD]);
  });

  it("removes every generation of a folder without a manifest (a first save killed before its commit)", async () => {
    const marker = writerMarkerName(OLD, deadPid());
    await makeGeneration(dir, OLD);
    await writeFile(join(dir, marker), "");
    await collect();
    expect(removed).toEqual([OLD, marker]);
    expect(await readdir(dir)).toEqual([]);
  });
});

describe("assertIndexFolder", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "lookup-knowledge-owner-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const refused = async (path: string) => {
    const error = await assertIndexFolder(path).then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(LookupKnowledgeError);
    expect((error as LookupKnowledgeError).code).toBe("INDEX_WRITE_FAILED");
    expect((error as Error).message).toContain(path);
  };

  it("accepts a missing folder, an empty one, and one with an index of either layout", async () => {
    await expect(assertIndexFolder(join(dir, "missing"))).resolves.toBeUndefined();
    await expect(assertIndexFolder(dir)).resolves.toBeUndefined();
    await manifestNaming(dir, LIVE, 1);
    await expect(assertIndexFolder(dir)).resolves.toBeUndefined();
  });

  it("accepts a folder holding only the writer lock and a scratch folder (a first save about to write)", async () => {
    await writeFile(join(dir, ".lookup-knowledge.lock"), "{}");
    await mkdir(join(dir, `.lookup-knowledge-scratch-${process.pid}-abc`));
    await expect(assertIndexFolder(dir)).resolves.toBeUndefined();
    await writeFile(join(dir, "notes.txt"), "mine");
    await refused(dir);
  });

  it("accepts a damaged index: a generation left by a killed first save, or a flat index with a broken manifest", async () => {
    await makeGeneration(dir, OLD);
    await expect(assertIndexFolder(dir)).resolves.toBeUndefined();
    await rm(join(dir, OLD), { recursive: true });
    await writeFile(join(dir, "manifest.json"), "{ damaged");
    for (const name of ["chunks.json", "keyword-index.json", "bm25.json"]) await writeFile(join(dir, name), "{}");
    await expect(assertIndexFolder(dir)).resolves.toBeUndefined();
  });

  it("refuses a file, a folder with someone else's manifest.json, and a non-empty folder without an index", async () => {
    await writeFile(join(dir, "file"), "x");
    await refused(join(dir, "file"));
    await writeFile(join(dir, "manifest.json"), JSON.stringify({ name: "My App" }));
    await refused(dir);
    await rm(join(dir, "manifest.json"));
    await refused(dir);
  });
});
