import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { LookupResult } from "../../src/index.js";
import { createTempDirs } from "../integration/helpers/integration-fixtures.js";
import { runCli } from "../helpers/run-cli.js";

const CLI_TIMEOUT = 120_000;

/**
 * `lookup-knowledge query` end to end in a child process, the CLI's test in the default tier;
 * cli.int.test.ts and the other CLI files cover the rest.
 */
describe("the lookup-knowledge CLI's first query", () => {
  const temp = createTempDirs();
  afterAll(() => temp.cleanup());

  it(
    "builds a missing index from --corpus on the first query and reuses it on the next",
    async () => {
      const fresh = join(await temp.make(), "index");
      const args = [
        "query",
        "invoice run rollback",
        "--index",
        fresh,
        "--corpus",
        "test/fixtures/kb",
        "--json",
        "--no-trace",
      ];

      const first = await runCli(args);
      expect(first.code).toBe(0);
      expect(first.stderr).toMatch(/building/i);
      const manifestText = await readFile(join(fresh, "manifest.json"), "utf8");

      const second = await runCli(args);
      expect(second.code).toBe(0);
      expect(second.stderr).not.toMatch(/building/i);
      expect(second.stderr).not.toMatch(/Indexed/);
      expect(await readFile(join(fresh, "manifest.json"), "utf8")).toBe(manifestText);

      const a = JSON.parse(first.stdout) as LookupResult;
      const b = JSON.parse(second.stdout) as LookupResult;
      expect(a.primary?.source).toMatch(/^billing\/invoice-run-rollback\.md#/);
      expect(b.evidence.map((block) => block.source)).toEqual(a.evidence.map((block) => block.source));
    },
    CLI_TIMEOUT * 2,
  );
});
