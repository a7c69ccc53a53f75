import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type CliRun } from "../helpers/run-cli.js";

const CLI_TIMEOUT = 120_000;
const SECRET = "lk-planted-secret-4f9c2e";
const CORPUS = '{"_id": "d1", "title": "One", "text": "first"}\n{"_id": "d2", "text": "second"}\n';
const QUERIES = '{"_id": "q1", "text": "find one"}\n';
const HEADER = "query-id\tcorpus-id\tscore\n";
const QRELS = `${HEADER}q1\td1\t1\n`;

/** One bounded line on stderr, without the planted secret or a stack, and exit code 1. */
function expectOneBoundedLine(run: CliRun): void {
  expect(run.code).toBe(1);
  expect(run.stderr.endsWith("\n")).toBe(true);
  expect(run.stderr.trim().split("\n")).toHaveLength(1);
  expect(run.stderr.length).toBeLessThanOrEqual(1001);
  expect(run.stderr).not.toContain(SECRET);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stdout).toBe("");
}

describe("lookup-knowledge eval --dataset on datasets that cannot be evaluated", () => {
  let root: string;
  let secretFile: string;
  let count = 0;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "lk-eval-errors-"));
    secretFile = join(root, "credentials");
    await writeFile(secretFile, `API_TOKEN=${SECRET}\nDB_PASSWORD=${SECRET}\n`);
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  /** A dataset folder with BEIR's download layout (qrels/test.tsv); a file given as `{ link }` is a symbolic link. */
  async function dataset(
    files: Partial<Record<"corpus.jsonl" | "queries.jsonl" | "qrels/test.tsv", string | { link: string }>>,
  ) {
    const dir = join(root, `dataset-${++count}`);
    await mkdir(join(dir, "qrels"), { recursive: true });
    const all = { "corpus.jsonl": CORPUS, "queries.jsonl": QUERIES, "qrels/test.tsv": QRELS, ...files };
    for (const [name, content] of Object.entries(all)) {
      if (typeof content === "string") await writeFile(join(dir, name), content);
      else await symlink(content.link, join(dir, name));
    }
    return dir;
  }

  const evaluate = (dir: string) =>
    runCli(["eval", "--dataset", dir, "--out", join(dir, "out"), "--variants", "L0"], {
      env: { LK_TEST_PLANTED: SECRET },
    });

  it(
    "never prints the environment when the qrels are a link to /proc/self/environ",
    async () => {
      const run = await evaluate(await dataset({ "qrels/test.tsv": { link: "/proc/self/environ" } }));
      expectOneBoundedLine(run);
      expect(run.stderr).toContain("test.tsv:1: expected the header row");
      expect(run.stderr).not.toContain("LK_TEST_PLANTED");
    },
    CLI_TIMEOUT,
  );

  for (const file of ["corpus.jsonl", "queries.jsonl", "qrels/test.tsv"] as const) {
    it(
      `never prints the first line of a secret file linked as ${file}`,
      async () => {
        const run = await evaluate(await dataset({ [file]: { link: secretFile } }));
        expectOneBoundedLine(run);
        expect(run.stderr).not.toContain("API_TOKEN");
      },
      CLI_TIMEOUT,
    );
  }

  it(
    "never prints the environment when the queries are a link to /proc/self/environ",
    async () => {
      const run = await evaluate(await dataset({ "queries.jsonl": { link: "/proc/self/environ" } }));
      expectOneBoundedLine(run);
      expect(run.stderr).toContain("queries.jsonl:1: invalid JSON");
    },
    CLI_TIMEOUT,
  );

  it(
    "reports a huge first line in one short line",
    async () => {
      const run = await evaluate(await dataset({ "corpus.jsonl": `${SECRET}${"x".repeat(2_000_000)}\n` }));
      expectOneBoundedLine(run);
      expect(run.stderr).toContain("corpus.jsonl:1: invalid JSON: a line of 2000024 characters");
    },
    CLI_TIMEOUT,
  );

  it(
    "shows a huge id of a duplicate document cut short",
    async () => {
      const id = "x".repeat(2_000_000);
      const run = await evaluate(
        await dataset({ "corpus.jsonl": `{"_id": "${id}", "text": "a"}\n{"_id": "${id}", "text": "b"}\n` }),
      );
      expectOneBoundedLine(run);
      expect(run.stderr).toContain("corpus.jsonl:2: duplicate document id");
      expect(run.stderr).toContain("(2000000 characters)");
    },
    CLI_TIMEOUT,
  );

  it(
    "refuses qrels with just more unknown documents than allowed in one line naming the counts, writing no report",
    async () => {
      const unknown = Array.from({ length: 1001 }, (_, i) => `q1\tnot-in-corpus-${i}\t1\n`).join("");
      const dir = await dataset({ "qrels/test.tsv": `${QRELS}${unknown}` });
      const run = await evaluate(dir);
      expectOneBoundedLine(run);
      expect(run.stderr).toContain("1,001 of the first 1,002 judgements name something the dataset lacks");
      expect(run.stderr).toContain("check --dataset and --split");
      expect(existsSync(join(dir, "out", "report.html"))).toBe(false);
    },
    CLI_TIMEOUT,
  );

  it(
    "evaluates qrels with a few unknown documents and queries, saying how many in a note",
    async () => {
      const dir = await dataset({ "qrels/test.tsv": `${QRELS}q1\tnot-in-corpus\t1\nq-missing\td1\t1\n` });
      const run = await evaluate(dir);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(
        "note: of 3 judgements, 1 name a document not in the corpus (unretrievable, they lower recall) and 1 a query not in the queries file (left out).",
      );
      expect(existsSync(join(dir, "out", "report.html"))).toBe(true);
    },
    CLI_TIMEOUT,
  );

  it(
    "calls a folder of empty files an empty dataset, with exit code 1",
    async () => {
      const run = await evaluate(await dataset({ "corpus.jsonl": "", "queries.jsonl": "", "qrels/test.tsv": "" }));
      expectOneBoundedLine(run);
      expect(run.stderr).toMatch(/corpus\.jsonl: no documents; there is nothing to evaluate\.\n$/);
    },
    CLI_TIMEOUT,
  );

  it(
    "calls qrels that judge no query of the split an empty dataset",
    async () => {
      const run = await evaluate(await dataset({ "qrels/test.tsv": HEADER }));
      expectOneBoundedLine(run);
      expect(run.stderr).toContain("test.tsv: no judgements in the test split; there is nothing to evaluate.");
    },
    CLI_TIMEOUT,
  );
});
