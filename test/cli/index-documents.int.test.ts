import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LookupResult } from "../../src/index.js";
import { createTempDirs } from "../integration/helpers/integration-fixtures.js";
import { runCli } from "../helpers/run-cli.js";

const CLI_TIMEOUT = 120_000;
const SECRET = "SECRET_MARKER_c41d";

const doc = (source: string, pageContent: string, metadata: object = {}) =>
  JSON.stringify({ pageContent, metadata: { source, ...metadata } });

const REFUNDS = doc("refunds.txt", "Refunds over 5000 dollars need the approval of Priya, the finance lead.", {
  title: "Refund policy",
});
const KEYS = doc("keys.md", "# API keys\n\nRotate every API key each 90 days from the admin console.");
const QUOKKAS = doc("animals.txt", "Quokkas live on Rottnest island and smile in photographs.");

describe("lookup-knowledge index --documents", () => {
  const temp = createTempDirs();
  let dir: string;
  let file: string;
  let out: string;
  const generation = async () =>
    (JSON.parse(await readFile(join(out, "manifest.json"), "utf8")) as { generation: string }).generation;
  const index = (...args: string[]) => runCli(["index", "--out", out, ...args], { cwd: dir });

  beforeAll(async () => {
    dir = await temp.make();
    file = join(dir, "docs.jsonl");
    out = join(dir, "index");
  });
  afterAll(() => temp.cleanup());

  it(
    "builds an index from a JSONL file, reporting a bad line and a document without a source id by line number and never echoing them",
    async () => {
      const lines = [REFUNDS, "", `{"pageContent": ${SECRET}}`, KEYS, JSON.stringify({ pageContent: SECRET }), QUOKKAS];
      await writeFile(file, `${lines.join("\r\n")}\r\n`);
      const run = await index("--documents", file);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(`${file} line 3 skipped: invalid JSON`);
      expect(run.stderr).toContain(`${file} line 5 skipped: no source id: metadata.source must be a non-empty string`);
      expect(run.stderr).toContain(
        "6 lines read, 4 documents, 1 line skipped; documents 3 added, 0 updated, 0 skipped (unchanged), 0 deleted, 1 not indexed",
      );
      expect(run.stderr + run.stdout).not.toContain(SECRET);
    },
    CLI_TIMEOUT,
  );

  it(
    "answers a query over the built index from a document",
    async () => {
      const run = await runCli(["query", "who approves a refund", "--index", out, "--no-trace", "--json"], {
        cwd: dir,
      });
      expect(run.code).toBe(0);
      const result = JSON.parse(run.stdout) as LookupResult;
      expect(result.evidence[0].source).toMatch(/^refunds\.txt/);
      expect(result.evidence[0].content).toContain("Priya");
    },
    CLI_TIMEOUT,
  );

  it(
    "syncs an edit, counting it as updated and the others as unchanged, and saves nothing when run again on the same file",
    async () => {
      const before = await generation();
      const edited = doc("refunds.txt", "Refunds over 5000 dollars need the approval of Omar, the new finance lead.", {
        title: "Refund policy",
      });
      await writeFile(file, [edited, KEYS, QUOKKAS].join("\n"));
      const synced = await index("--documents", file);
      expect(synced.code).toBe(0);
      expect(synced.stderr).toContain("documents 0 added, 1 updated, 2 skipped (unchanged), 0 deleted, 0 not indexed");
      expect(synced.stderr).toMatch(/Synced .* \(cleanup incremental\)/);
      const after = await generation();
      expect(after).not.toBe(before);

      const again = await index("--documents", file);
      expect(again.code).toBe(0);
      expect(again.stderr).toContain("is up to date with");
      expect(again.stderr).toContain("nothing saved");
      expect(await generation()).toBe(after);
    },
    CLI_TIMEOUT,
  );

  it(
    "keeps sources a sync was not given, and removes them with --cleanup full",
    async () => {
      await writeFile(file, `${KEYS}\n`);
      const incremental = await index("--documents", file);
      expect(incremental.stderr).toContain("is up to date with");
      const full = await index("--documents", file, "--cleanup", "full");
      expect(full.code).toBe(0);
      expect(full.stderr).toContain("documents 0 added, 0 updated, 1 skipped (unchanged), 2 deleted");
      const files = JSON.parse(await readFile(join(out, await generation(), "files.json"), "utf8")) as unknown;
      expect(JSON.stringify(files)).not.toContain("refunds.txt");
    },
    CLI_TIMEOUT,
  );

  it(
    "reads the documents from stdin with -, naming stdin in what it reports",
    async () => {
      const run = await runCli(["index", "--out", out, "--documents", "-"], {
        cwd: dir,
        input: `${QUOKKAS}\nnot json ${SECRET}\n`,
      });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain("stdin line 2 skipped: invalid JSON");
      expect(run.stderr).toMatch(/Synced .* with stdin/);
      expect(run.stderr).toContain("2 lines read, 1 document, 1 line skipped; documents 1 added");
      expect(run.stderr).not.toContain(SECRET);
    },
    CLI_TIMEOUT,
  );

  it(
    "exits 2 for --documents with --corpus, and 1 for a documents file that does not exist",
    async () => {
      const usage = await index("--documents", file, "--corpus", dir);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain("--documents and --corpus are two sources");
      const missing = await index("--documents", join(dir, "missing.jsonl"));
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("cannot read the documents of --documents");
      expect(missing.stderr).toContain("ENOENT");
    },
    CLI_TIMEOUT,
  );
});
