import { spawnSync } from "node:child_process";
import { cp, readdir, readFile, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { acquireIndexLock, KnowledgeBase, LookupKnowledgeError } from "../../src/index.js";
import { createTempDirs, REPO_ROOT } from "../integration/helpers/integration-fixtures.js";

const temp = createTempDirs("lookup-knowledge-lock-");
afterAll(() => temp.cleanup());

async function rejection(promise: Promise<unknown>): Promise<LookupKnowledgeError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LookupKnowledgeError);
  return error as LookupKnowledgeError;
}

/** A pid that no process has any more. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ["-e", "0"]);
  expect(pid).toBeGreaterThan(0);
  return pid;
}

async function corpusAndIndex(): Promise<{ corpus: string; out: string }> {
  const base = await temp.make();
  const corpus = join(base, "corpus");
  const out = join(base, "index");
  await cp(join(REPO_ROOT, "test/fixtures/kb"), corpus, { recursive: true });
  await (await KnowledgeBase.build({ corpusDir: corpus })).save(out);
  return { corpus, out };
}

async function appendTo(file: string, text: string): Promise<void> {
  await writeFile(file, `${await readFile(file, "utf8")}\n\n${text}\n`);
}

describe("the writer lock of an index folder", () => {
  it("refuses a second writer at once with INDEX_LOCKED naming the holder's pid and host", async () => {
    const dir = await temp.make();
    const lock = await acquireIndexLock(dir);
    try {
      const error = await rejection(acquireIndexLock(dir, { waitMs: 0 }));
      expect(error.code).toBe("INDEX_LOCKED");
      expect(error.message).toContain(`pid ${process.pid} on ${hostname()}`);
      expect(error.message).toContain(join(dir, ".lookup-knowledge.lock"));
    } finally {
      await lock.release();
    }
    expect(await readdir(dir)).toEqual([]);
  });

  it("lets a waiting writer in once the holder releases the lock, reporting the wait once", async () => {
    const dir = await temp.make();
    const first = await acquireIndexLock(dir);
    const waits: unknown[] = [];
    let waiting: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (waiting = resolve));
    const second = acquireIndexLock(dir, {
      waitMs: 600_000,
      pollMs: 10,
      onWaiting: (owner) => (waits.push(owner), waiting()),
    });
    await started;
    await first.release();
    const lock = await second;
    expect(waits).toHaveLength(1);
    expect(JSON.parse(await readFile(join(dir, ".lookup-knowledge.lock"), "utf8"))).toMatchObject({
      pid: process.pid,
      host: hostname(),
    });
    await lock.release();
  });

  it("takes over the lock of a process of this host that is gone", async () => {
    const dir = await temp.make();
    await writeFile(
      join(dir, ".lookup-knowledge.lock"),
      JSON.stringify({ pid: deadPid(), host: hostname(), startedAt: new Date().toISOString() }),
    );
    const lock = await acquireIndexLock(dir);
    expect(lock.owner.pid).toBe(process.pid);
    await lock.assertHeld();
    await lock.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it("keeps the lock of another host and says to remove it if that process is gone", async () => {
    const dir = await temp.make();
    await writeFile(
      join(dir, ".lookup-knowledge.lock"),
      JSON.stringify({ pid: deadPid(), host: "another-host.example", startedAt: new Date().toISOString() }),
    );
    const error = await rejection(acquireIndexLock(dir));
    expect(error.code).toBe("INDEX_LOCKED");
    expect(error.message).toMatch(/on another-host\.example .*if that process is gone, remove/);
  });

  it("makes a save wait for the lock or fail with INDEX_LOCKED, and a save given the held lock does not wait for itself", async () => {
    const { out } = await corpusAndIndex();
    const kb = await KnowledgeBase.load(out);
    const lock = await acquireIndexLock(out);
    try {
      expect((await rejection(kb.save(out, { lockWaitMs: 0 }))).code).toBe("INDEX_LOCKED");
      await kb.save(out, { lock });
      await lock.assertHeld();
    } finally {
      await lock.release();
    }
    expect((await readdir(out)).filter((name) => name.startsWith(".lookup-knowledge"))).toEqual([]);
  });

  it("refuses a lock of another folder in save options", async () => {
    const { out } = await corpusAndIndex();
    const other = await acquireIndexLock(await temp.make());
    try {
      expect((await rejection((await KnowledgeBase.load(out)).save(out, { lock: other }))).code).toBe("INVALID_OPTION");
    } finally {
      await other.release();
    }
  });
});

describe("a save of an update", () => {
  it("fails with INDEX_CHANGED when another writer committed since its base was loaded, and the other's edit stays", async () => {
    const { corpus, out } = await corpusAndIndex();
    const a = await KnowledgeBase.load(out);
    const b = await KnowledgeBase.load(out);
    await appendTo(join(corpus, "glossary.md"), "A sentence about quokkas.");
    await (await b.update({ corpusDir: corpus })).knowledgeBase.save(out);
    const { knowledgeBase } = await a.update({ corpusDir: corpus });
    const error = await rejection(knowledgeBase.save(out));
    expect(error.code).toBe("INDEX_CHANGED");
    expect(error.message).toContain(a.generation ?? "");
    const after = await KnowledgeBase.load(out);
    expect(after.generation).not.toBe(a.generation);
    expect(after.chunks.some((chunk) => chunk.content.includes("quokkas"))).toBe(true);
    await knowledgeBase.save(out, { startedFrom: null });
  });

  it("can be saved into the same folder twice, and a fresh build overwrites whatever is committed", async () => {
    const { corpus, out } = await corpusAndIndex();
    const loaded = await KnowledgeBase.load(out);
    await appendTo(join(corpus, "glossary.md"), "A sentence about wombats.");
    const { knowledgeBase } = await loaded.update({ corpusDir: corpus });
    await knowledgeBase.save(out);
    await knowledgeBase.save(out);
    const built = await KnowledgeBase.build({ corpusDir: corpus });
    await built.save(out);
    await built.save(out);
    expect((await KnowledgeBase.load(out)).fingerprint).toBe(built.fingerprint);
  });
});
