import { appendFile, cp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnowledgeBase, type LookupResult } from "../../src/index.js";
import { makeChunk } from "../helpers/retrieval-fakes.js";
import { linesOf, runCli } from "../helpers/run-cli.js";
import { createTempDirs, KB_DIR } from "../integration/helpers/integration-fixtures.js";

const CLI_TIMEOUT = 180_000;

/** A copy of the fixture corpus and an index built from it by the CLI, in a folder of their own. */
async function project(make: () => Promise<string>): Promise<{ dir: string; corpus: string; index: string }> {
  const dir = await make();
  const corpus = join(dir, "kb");
  const index = join(dir, "index");
  await cp(KB_DIR, corpus, { recursive: true });
  const built = await runCli(["index", "--corpus", corpus, "--out", index]);
  expect(built.code).toBe(0);
  return { dir, corpus, index };
}

/** stdout of `query --json` parsed; throws when anything but the JSON is on stdout. */
const parsed = (stdout: string) => JSON.parse(stdout) as LookupResult;

describe("query and the corpus its index came from", () => {
  const temp = createTempDirs();
  let shared: { dir: string; corpus: string; index: string };

  beforeAll(async () => {
    shared = await project(() => temp.make());
  }, CLI_TIMEOUT);
  afterAll(() => temp.cleanup());

  it(
    "keeps stdout pure JSON when the index is built on first use and the trace cannot be written; those messages go to stderr",
    async () => {
      const dir = await temp.make();
      // The trace path is a folder: the lookup goes on and says so on stderr.
      const run = await runCli([
        "query",
        "rotate an API key",
        "--index",
        join(dir, "index"),
        "--corpus",
        KB_DIR,
        "--json",
        "--trace",
        dir,
      ]);
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/No index in .* yet: building it from/);
      expect(run.stderr).toMatch(/Indexed \d+ chunks/);
      expect(run.stderr).toContain(`trace path "${dir}"`);
      expect(parsed(run.stdout).primary?.source).toMatch(/^access\/api-key-rotation\.md#/);
    },
    CLI_TIMEOUT,
  );

  it(
    "prints no warning after a touch (same content, new times)",
    async () => {
      const later = new Date(Date.now() + 120_000);
      for (const file of ["billing/refunds.md", "access/api-key-rotation.md"])
        await utimes(join(shared.corpus, file), later, later);
      const run = await runCli([
        "query",
        "who approves a refund",
        "--index",
        shared.index,
        "--corpus",
        shared.corpus,
        "--json",
        "--no-trace",
      ]);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe("");
      expect(parsed(run.stdout).evidence.length).toBeGreaterThan(0);
    },
    CLI_TIMEOUT,
  );

  it(
    "warns in one stderr line, keeping stdout pure JSON, after an edit, an added file and a removed file; `index` clears it",
    async () => {
      const { corpus, index } = await project(() => temp.make());
      await appendFile(join(corpus, "billing", "refunds.md"), "\nRefunds above 10,000 EUR need the CFO.\n");
      await writeFile(join(corpus, "billing", "new-policy.md"), "---\ndomain: billing\n---\n# New policy\n\nText.\n");
      await rm(join(corpus, "access", "api-key-rotation.md"));
      const stale = await runCli([
        "query",
        "who approves a refund",
        "--index",
        index,
        "--corpus",
        corpus,
        "--json",
        "--no-trace",
      ]);
      expect(stale.code).toBe(0);
      expect(linesOf(stale.stderr)).toEqual([
        `Warning: the index in ${index} is out of date with ${corpus}: 1 changed ("billing/refunds.md"), 1 added ("billing/new-policy.md"), 1 removed ("access/api-key-rotation.md"); run \`lookup-knowledge index --corpus ${corpus} --out ${index}\` to update it.`,
      ]);
      expect(parsed(stale.stdout).query).toBe("who approves a refund");

      expect((await runCli(["index", "--corpus", corpus, "--out", index])).code).toBe(0);
      const fresh = await runCli([
        "query",
        "who approves a refund",
        "--index",
        index,
        "--corpus",
        corpus,
        "--json",
        "--no-trace",
      ]);
      expect(fresh.stderr).toBe("");
    },
    CLI_TIMEOUT,
  );

  it(
    "checks the folder the index was built from when --corpus is absent",
    async () => {
      const { dir, corpus, index } = await project(() => temp.make());
      await appendFile(join(corpus, "billing", "refunds.md"), "\nA new sentence.\n");
      const run = await runCli(["query", "refund", "--index", "index", "--json", "--no-trace"], { cwd: dir });
      expect(run.code).toBe(0);
      expect(linesOf(run.stderr)).toEqual([
        expect.stringContaining('the index in index is out of date with kb: 1 changed ("billing/refunds.md")'),
      ]);
      expect(index).toBe(join(dir, "index"));
    },
    CLI_TIMEOUT,
  );

  it(
    "warns when --corpus names another folder than the one the index was built from",
    async () => {
      const other = join(await temp.make(), "docs");
      await cp(KB_DIR, other, { recursive: true });
      const run = await runCli(["query", "refund", "--index", shared.index, "--corpus", other, "--json", "--no-trace"]);
      expect(run.code).toBe(0);
      expect(linesOf(run.stderr)).toEqual([
        `Warning: the index in ${shared.index} was built from ${shared.corpus}, not from ${other}, and answers from ${shared.corpus}; run \`lookup-knowledge index --corpus ${other} --out ${shared.index}\` to index ${other}, or pass --corpus ${shared.corpus}.`,
      ]);
      parsed(run.stdout);
    },
    CLI_TIMEOUT,
  );

  it(
    "exits 2 for an unknown --domain, listing the index's domains, and accepts a known one in any case",
    async () => {
      const [unknown, known] = await Promise.all([
        runCli([
          "query",
          "refund",
          "--index",
          shared.index,
          "--corpus",
          shared.corpus,
          "--domain",
          "finance",
          "--no-trace",
        ]),
        runCli([
          "query",
          "refund",
          "--index",
          shared.index,
          "--corpus",
          shared.corpus,
          "--domain",
          " Billing ",
          "--json",
          "--no-trace",
        ]),
      ]);
      expect(unknown.code).toBe(2);
      expect(unknown.stdout).toBe("");
      expect(linesOf(unknown.stderr)).toEqual([
        'lookup-knowledge: query: unknown domain "finance"; the index\'s 3 domains are "access", "billing", "deployment". Run `lookup-knowledge query --help` for usage.',
      ]);
      expect(known.code).toBe(0);
      expect(parsed(known.stdout).domainFilter).toBe("billing");
    },
    CLI_TIMEOUT,
  );

  it(
    "says nothing about the corpus of an index built by the library from ready-made chunks",
    async () => {
      const index = join(await temp.make(), "index");
      await (
        await KnowledgeBase.fromChunks([makeChunk("a.md#top", { content: "refund approval limits" })], {
          embeddings: null,
        })
      ).save(index);
      const run = await runCli([
        "query",
        "refund",
        "--index",
        index,
        "--corpus",
        shared.corpus,
        "--json",
        "--no-trace",
      ]);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe("");
      expect(parsed(run.stdout).evidence.map((block) => block.source)).toEqual(["a.md#top"]);
    },
    CLI_TIMEOUT,
  );

  it(
    "loads an index saved before the corpus folder was recorded, checking it against --corpus by content",
    async () => {
      const { corpus, index } = await project(() => temp.make());
      const manifestPath = join(index, "manifest.json");
      const { corpus: _dropped, ...old } = JSON.parse(await readFile(manifestPath, "utf8")) as Record<string, unknown>;
      await writeFile(manifestPath, `${JSON.stringify(old, null, 2)}\n`);
      const same = await runCli(["query", "refund", "--index", index, "--corpus", corpus, "--json", "--no-trace"]);
      expect(same.code).toBe(0);
      expect(same.stderr).toBe("");
      await appendFile(join(corpus, "billing", "refunds.md"), "\nMore.\n");
      const edited = await runCli(["query", "refund", "--index", index, "--corpus", corpus, "--json", "--no-trace"]);
      expect(edited.code).toBe(0);
      expect(linesOf(edited.stderr)).toEqual([expect.stringContaining('1 changed ("billing/refunds.md")')]);
    },
    CLI_TIMEOUT,
  );
});
