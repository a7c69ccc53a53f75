import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IndexManifest, LookupResult } from "../../src/index.js";
import { createTempDirs } from "../integration/helpers/integration-fixtures.js";
import { runCli } from "../helpers/run-cli.js";

function errorLines(stderr: string): string[] {
  return stderr.split("\n").filter((line) => line.includes("lookup-knowledge:"));
}

const CLI_TIMEOUT = 120_000;

describe("the lookup-knowledge CLI", () => {
  const temp = createTempDirs();
  let indexDir: string;

  beforeAll(async () => {
    indexDir = join(await temp.make(), "index");
  });
  afterAll(() => temp.cleanup());

  it(
    "indexes the fixture corpus, exits 0 and writes manifest.json",
    async () => {
      const run = await runCli(["index", "--corpus", "test/fixtures/kb", "--out", indexDir]);
      expect(run.stderr).not.toMatch(/^\s+at /m);
      expect(run.code).toBe(0);
      const manifest = JSON.parse(await readFile(join(indexDir, "manifest.json"), "utf8")) as IndexManifest;
      expect(manifest.format).toBe("lookup-knowledge-index");
      expect(manifest.chunkCount).toBeGreaterThan(0);
      expect(manifest.domains).toEqual(["access", "billing", "deployment"]);
      expect(run.stderr).toContain(`Indexed ${manifest.chunkCount} chunks`);
    },
    CLI_TIMEOUT,
  );

  it(
    "prints the lookup as JSON with evidence for `query --json`",
    async () => {
      const run = await runCli(["query", "rotate an API key", "--index", indexDir, "--json", "--no-trace"]);
      expect(run.code).toBe(0);
      expect(run.stderr).not.toMatch(/building/i);
      const result = JSON.parse(run.stdout) as LookupResult;
      expect(result.query).toBe("rotate an API key");
      expect(result.evidence.length).toBeGreaterThan(0);
      expect(result.primary?.source).toMatch(/^access\/api-key-rotation\.md#/);
      expect(result.l1Status).toBe("ok");
      expect(result.traceWritten).toBe(false);
    },
    CLI_TIMEOUT,
  );

  it(
    "exits non-zero with one error line and no stack when the index is missing and so is the corpus",
    async () => {
      const base = await temp.make();
      const run = await runCli([
        "query",
        "rollback",
        "--index",
        join(base, "index"),
        "--corpus",
        join(base, "no-corpus"),
        "--no-trace",
      ]);
      expect(run.code).not.toBe(0);
      expect(run.code).not.toBeNull();
      expect(errorLines(run.stderr)).toHaveLength(1);
      expect(errorLines(run.stderr)[0]).toContain("no-corpus");
      expect(run.stderr).not.toContain("    at ");
      expect(run.stdout).toBe("");
    },
    CLI_TIMEOUT,
  );

  it(
    "exits non-zero with one error line saying how to rebuild when the saved index is corrupted",
    async () => {
      const corrupted = join(await temp.make(), "index");
      await cp(indexDir, corrupted, { recursive: true });
      await writeFile(join(corrupted, "manifest.json"), "{ this is not json");
      const run = await runCli([
        "query",
        "rollback",
        "--index",
        corrupted,
        "--corpus",
        join(corrupted, "no-corpus"),
        "--no-trace",
      ]);
      expect(run.code).not.toBe(0);
      expect(run.code).not.toBeNull();
      const lines = errorLines(run.stderr);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain("lookup-knowledge index");
      expect(run.stderr).not.toContain("    at ");
      expect(run.stderr).not.toMatch(/building/i);
    },
    CLI_TIMEOUT,
  );
});
