import { chmod, cp, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KnowledgeBase, LookupKnowledgeError } from "../../src/index.js";
import { createTempDirs, REPO_ROOT } from "../integration/helpers/integration-fixtures.js";
import { runCli } from "../helpers/run-cli.js";
import {
  fillDisk,
  mountTmpfs,
  remountReadOnly,
  unmountTmpfs,
  type TmpfsMount,
} from "../reliability/helpers/index-tmpfs.js";

const temp = createTempDirs("lookup-knowledge-tmpdir-");
const mounts: TmpfsMount[] = [];
afterAll(async () => {
  for (const mount of mounts) unmountTmpfs(mount);
  await temp.cleanup();
});

/** A corpus and its index, built with the usual TMPDIR. */
async function indexed(parent?: string): Promise<{ corpus: string; out: string; generation: string | null }> {
  const root = parent ?? (await temp.make());
  const corpus = join(root, "corpus");
  const out = join(root, "index");
  await cp(join(REPO_ROOT, "test/fixtures/kb"), corpus, { recursive: true });
  await (await KnowledgeBase.build({ corpusDir: corpus })).save(out);
  return { corpus, out, generation: (await KnowledgeBase.load(out)).generation };
}

/** Loads `out` in this process with TMPDIR set to `tmp`. */
async function loadWithTmpdir(out: string, tmp: string): Promise<KnowledgeBase> {
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  try {
    return await KnowledgeBase.load(out);
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}

/** A tmpfs of `size` on a new folder; `mounted: false` with the reason where mounting is not permitted. */
async function tmpfs(size: string): Promise<TmpfsMount> {
  const dir = join(await temp.make(), "disk");
  await mkdir(dir);
  const mount = mountTmpfs(dir, size);
  mounts.push(mount);
  return mount;
}

/** Loads, queries and re-indexes with TMPDIR at `tmp`: all work, and the good index is neither rebuilt nor replaced. */
async function expectIndependentOf(tmp: string): Promise<void> {
  const { corpus, out, generation } = await indexed();
  expect((await loadWithTmpdir(out, tmp)).generation).toBe(generation);
  // tsx, which runs the CLI from its sources here, would put its transform cache in TMPDIR.
  const env = { TMPDIR: tmp, TSX_DISABLE_CACHE: "1" };
  const query = await runCli(
    ["query", "invoice run rollback", "--index", out, "--corpus", corpus, "--json", "--no-trace"],
    { env },
  );
  expect(query.code, query.stderr).toBe(0);
  expect((JSON.parse(query.stdout) as { evidence: unknown[] }).evidence.length).toBeGreaterThan(0);
  const index = await runCli(["index", "--corpus", corpus, "--out", out], { env });
  expect(index.code, index.stderr).toBe(0);
  expect(index.stderr).toMatch(/is up to date/);
  expect(index.stderr).not.toMatch(/rebuilding/);
  expect((await KnowledgeBase.load(out)).generation).toBe(generation);
}

describe("loading and re-indexing whatever TMPDIR is", () => {
  it("work with TMPDIR naming a folder that does not exist", { timeout: 180_000 }, async () => {
    await expectIndependentOf(join(await temp.make(), "missing"));
  });

  it("work with TMPDIR on a full disk", { timeout: 180_000 }, async (ctx) => {
    const mount = await tmpfs("64k");
    if (!mount.mounted) return ctx.skip(mount.reason);
    await fillDisk(mount.dir, join(mount.dir, "filler"), 0);
    await expectIndependentOf(mount.dir);
  });

  it("work with TMPDIR on a read-only file system", { timeout: 180_000 }, async (ctx) => {
    const mount = await tmpfs("64k");
    if (!mount.mounted) return ctx.skip(mount.reason);
    remountReadOnly(mount, true);
    await expectIndependentOf(mount.dir);
  });

  it.skipIf(process.getuid?.() === 0)(
    "work with TMPDIR a folder without write permission (chmod 0555; root writes through it, so skipped as root)",
    { timeout: 180_000 },
    async () => {
      const tmp = join(await temp.make(), "read-only");
      await mkdir(tmp);
      await chmod(tmp, 0o555);
      await expectIndependentOf(tmp);
    },
  );

  it("load a read-only index folder through TMPDIR, and report SCRATCH_UNAVAILABLE, never a damaged index, when TMPDIR cannot be used either", async (ctx) => {
    const mount = await tmpfs("16m");
    if (!mount.mounted) return ctx.skip(mount.reason);
    const { corpus, out, generation } = await indexed(mount.dir);
    remountReadOnly(mount, true);
    expect((await KnowledgeBase.load(out)).generation).toBe(generation);
    const missing = join(await temp.make(), "missing");
    const error = await loadWithTmpdir(out, missing).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LookupKnowledgeError);
    expect((error as LookupKnowledgeError).code).toBe("SCRATCH_UNAVAILABLE");
    expect((error as Error).message).toContain(out);
    expect((error as Error).message).toContain(`${missing}: ENOENT`);
    const index = await runCli(["index", "--corpus", corpus, "--out", out], {
      env: { TMPDIR: missing, TSX_DISABLE_CACHE: "1" },
    });
    expect(index.code).toBe(1);
    expect(index.stderr).not.toMatch(/rebuilding/);
    remountReadOnly(mount, false);
    expect((await KnowledgeBase.load(out)).generation).toBe(generation);
  });
});
