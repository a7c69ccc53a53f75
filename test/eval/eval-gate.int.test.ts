import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Baseline } from "../../src/eval/promptfoo/baseline.js";
import { runCli } from "../helpers/run-cli.js";

/** Runs the real `npm run eval` command line (promptfoo CLI included) on the repository's suite against a baseline it cannot meet. */
describe("npm run eval", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "lk-eval-gate-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("exits non-zero and names the metric and its baseline when a metric falls below the committed baseline", async () => {
    const committed = JSON.parse(await readFile("eval/baseline.json", "utf8")) as Baseline;
    const raised: Baseline = { ...committed, variants: { ...committed.variants, "L0+L1": { ...committed.variants["L0+L1"], "nDCG@10": 0.99 } } };
    const baselinePath = join(dir, "baseline.json");
    await writeFile(baselinePath, JSON.stringify(raised));

    // The same flags as package.json's "eval" script, with the raised baseline and a temp out folder.
    const run = await runCli(["eval", "--golden", "eval/golden-set.yaml", "--corpus", "corpus", "--baseline", baselinePath, "--out", join(dir, "out")], {
      env: { PROMPTFOO_CONFIG_DIR: join(dir, "promptfoo-home") },
    });

    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/baseline: L0\+L1 nDCG@10 = 0\.\d{4} is below its baseline 0\.9900/);
    // Only the raised metric fails: the contract checks and the other metrics hold.
    expect(run.stdout).toContain("FAILED (1 problem)");
    // promptfoo itself failed the run: the gate hook set its exit code.
    expect(run.stderr).toContain("lookup-knowledge gate: FAILED (1 problem)");
    const report = await readFile(join(dir, "out", "report.html"), "utf8");
    expect(report).toContain("<svg");
  }, 300_000);
});
