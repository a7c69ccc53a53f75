import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Baseline } from "../../src/eval/promptfoo/baseline.js";

/** Runs the real `npm run eval` pipeline (promptfoo CLI included) against a baseline it cannot meet. */
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

    const run = spawnSync(process.execPath, ["--import", "tsx", "eval/promptfoo/run-eval.ts", "--baseline", baselinePath, "--out", join(dir, "out")], {
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
      timeout: 240_000,
    });

    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/baseline: L0\+L1 nDCG@10 = 0\.\d{4} is below its baseline 0\.9900/);
    // Only the raised metric fails: the contract checks and the other metrics hold.
    expect(run.stderr).toContain("FAILED (1 problem)");
    const report = await readFile(join(dir, "out", "report.html"), "utf8");
    expect(report).toContain("<svg");
  }, 300_000);
});
