import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { acquireIndexLock, KnowledgeBase } from "../../src/index.js";
import { createTempDirs } from "../integration/helpers/integration-fixtures.js";
import { CLI_ENTRY, CLI_REPO_ROOT, runCli, TSX_LOADER } from "../helpers/run-cli.js";
import { writeCorpus } from "../reliability/helpers/index-corpus.js";

const LOCK = ".lookup-knowledge.lock";
const EDIT = "The lockstep codename is zanzibar.";

/** A CLI `index` child: its exit, its stderr so far, and the child to kill. */
function startIndex(args: string[]) {
  const { LOOKUP_KNOWLEDGE_PGVECTOR_URL: _url, ...env } = process.env;
  const child = spawn(process.execPath, ["--import", TSX_LOADER, CLI_ENTRY, "index", ...args], {
    cwd: CLI_REPO_ROOT,
    env: { ...env, NO_COLOR: "1" },
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  return { child, exited, stderr: () => stderr };
}

/** Resolves once `check` holds; rejects when `exited` settles first (a hang guard, not a threshold). */
async function until(check: () => boolean | Promise<boolean>, what: string, exited?: Promise<unknown>): Promise<void> {
  let gone = false;
  void exited?.then(() => (gone = true));
  for (;;) {
    if (await check()) return;
    if (gone) throw new Error(`the process exited before ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const lockHolder = async (out: string): Promise<number | null> => {
  const text = await readFile(join(out, LOCK), "utf8").catch(() => "");
  return text === "" ? null : (JSON.parse(text) as { pid: number }).pid;
};

describe("lookup-knowledge index with other writers on the same folder", () => {
  const temp = createTempDirs("lookup-knowledge-cli-lock-");
  afterAll(() => temp.cleanup());

  async function indexedCorpus(files: number) {
    const root = await temp.make();
    const corpus = await writeCorpus(join(root, "corpus"), { files, sections: 3, words: 40, variant: 1 });
    const out = join(root, "index");
    await (await KnowledgeBase.build({ corpusDir: corpus })).save(out);
    return { corpus, out, edited: join(corpus, "billing", "doc-0.md") };
  }

  it("fails a second writer given --lock-wait 0 with the holder's pid, and saves nothing", async () => {
    const { corpus, out } = await indexedCorpus(12);
    const before = (await KnowledgeBase.load(out)).generation;
    const lock = await acquireIndexLock(out);
    try {
      const run = await runCli(["index", "--corpus", corpus, "--out", out, "--lock-wait", "0"]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`is being written by pid ${process.pid} on `);
      expect(run.stderr).toContain(`remove ${join(out, LOCK)}`);
    } finally {
      await lock.release();
    }
    expect((await KnowledgeBase.load(out)).generation).toBe(before);
  });

  it(
    "makes an incremental run wait for a --full run that started first, and the edit it saw is in the final index",
    { timeout: 240_000 },
    async () => {
      const { corpus, out, edited } = await indexedCorpus(300);
      const full = startIndex(["--corpus", corpus, "--out", out, "--full"]);
      await until(async () => (await lockHolder(out)) === full.child.pid, "it took the lock", full.exited);
      await writeFile(edited, `${await readFile(edited, "utf8")}\n${EDIT}\n`);
      const incremental = startIndex(["--corpus", corpus, "--out", out]);
      const [fullCode, incrementalCode] = await Promise.all([full.exited, incremental.exited]);
      expect(fullCode, full.stderr()).toBe(0);
      expect(incrementalCode, incremental.stderr()).toBe(0);
      const kb = await KnowledgeBase.load(out);
      expect(kb.chunks.some((chunk) => chunk.content.includes(EDIT))).toBe(true);
      expect(existsSync(join(out, LOCK))).toBe(false);
    },
  );

  it(
    "lets only the first of two runs commit when the second does not wait, and loses no edit made before the second started",
    { timeout: 240_000 },
    async () => {
      const { corpus, out, edited } = await indexedCorpus(300);
      const full = startIndex(["--corpus", corpus, "--out", out, "--full"]);
      await until(async () => (await lockHolder(out)) === full.child.pid, "it took the lock", full.exited);
      await writeFile(edited, `${await readFile(edited, "utf8")}\n${EDIT}\n`);
      const second = await runCli(["index", "--corpus", corpus, "--out", out, "--lock-wait", "0"]);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`is being written by pid ${full.child.pid} on `);
      expect(await full.exited).toBe(0);
      const rerun = await runCli(["index", "--corpus", corpus, "--out", out]);
      expect(rerun.code, rerun.stderr).toBe(0);
      expect((await KnowledgeBase.load(out)).chunks.some((chunk) => chunk.content.includes(EDIT))).toBe(true);
    },
  );

  it(
    "takes over the lock of a writer killed mid-build, and an up-to-date run removes its leftovers",
    { timeout: 240_000 },
    async () => {
      const { corpus, out } = await indexedCorpus(300);
      const before = (await KnowledgeBase.load(out)).generation;
      const killed = startIndex(["--corpus", corpus, "--out", out, "--full"]);
      const pid = killed.child.pid ?? 0;
      await until(async () => (await lockHolder(out)) === pid, "it took the lock", killed.exited);
      killed.child.kill("SIGKILL");
      await killed.exited;
      // What it would have left had the kill come during its save and a load.
      const generation = "gen-00000000deadbeef";
      await mkdir(join(out, generation));
      await writeFile(join(out, generation, "chunk-list.json"), "[]");
      await writeFile(join(out, `${generation}.${pid}.writing`), "");
      await mkdir(join(out, `.lookup-knowledge-scratch-${pid}-abcdef`));
      expect(await lockHolder(out)).toBe(pid);

      const run = await runCli(["index", "--corpus", corpus, "--out", out]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/is up to date/);
      expect(run.stderr).toMatch(/removed 3 leftovers of interrupted runs/);
      expect((await readdir(out)).sort()).toEqual([before, "manifest.json"].sort());
      expect((await KnowledgeBase.load(out)).generation).toBe(before);
    },
  );
});
