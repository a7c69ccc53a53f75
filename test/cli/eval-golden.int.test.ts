import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Baseline } from "../../src/eval/promptfoo/baseline.js";
import { resolvePromptfooBin } from "../../src/eval/promptfoo/run-promptfoo.js";
import { CLI_REPO_ROOT, runCli, type CliRun } from "../helpers/run-cli.js";

/** A corpus and golden set the package does not ship (examples/), with the baseline committed beside it. */
const EXAMPLE = join(CLI_REPO_ROOT, "examples/eval-own-corpus");
const GOLDEN = join(EXAMPLE, "golden.yaml");
const CORPUS = join(EXAMPLE, "corpus");
const BASELINE = join(EXAMPLE, "golden.baseline.json");

/** Runs promptfoo's own CLI on a config, as a user would with `npx promptfoo eval -c FILE`. */
function runPromptfoo(config: string, env: Record<string, string>): Promise<CliRun> {
  const bin = resolvePromptfooBin(CLI_REPO_ROOT)!;
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [bin, "eval", "-c", config, "--no-cache", "--no-table", "--no-progress-bar"],
      { env: { ...process.env, NO_COLOR: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (data: string) => (stdout += data));
    child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

// Sequential: each case runs promptfoo (about 6 s of start-up plus the suite).
describe("lookup-knowledge eval --golden on your own corpus", () => {
  let dir: string;
  let env: Record<string, string>;
  const evalArgs = (out: string, ...more: string[]) => [
    "eval",
    "--golden",
    GOLDEN,
    "--corpus",
    CORPUS,
    "--out",
    out,
    ...more,
  ];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "lk-eval-golden-"));
    // The test's own promptfoo history: never the user's ~/.promptfoo or the repository's.
    env = {
      PROMPTFOO_CONFIG_DIR: join(dir, "promptfoo-home"),
      PROMPTFOO_DISABLE_TELEMETRY: "1",
      PROMPTFOO_DISABLE_UPDATE: "1",
    };
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("passes against the committed baseline from a folder outside the repository, writes the report, and plain promptfoo agrees", async () => {
    const out = join(dir, "pass");
    const run = await runCli(evalArgs(out), { cwd: dir, env });

    expect(run.stderr).not.toMatch(/lookup-knowledge: /);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("eval: passed");
    expect(run.stdout).toMatch(/^L0\+L1\s+\d\.\d{4}/m);
    for (const file of ["promptfooconfig.yaml", "results.json", "summary.json", "report.html", "gate.json"])
      expect((await stat(join(out, file))).size, file).toBeGreaterThan(0);
    expect(JSON.parse(await readFile(join(out, "gate.json"), "utf8"))).toMatchObject({ passed: true, problems: [] });
    const config = await readFile(join(out, "promptfooconfig.yaml"), "utf8");
    expect(config).toContain('description: "lookup_knowledge on corpus: golden.yaml"');
    expect(await stat(join(dir, "promptfoo-home"))).toBeTruthy();

    const direct = await runPromptfoo(join(out, "promptfooconfig.yaml"), env);
    expect(direct.stderr).toContain("lookup-knowledge gate: passed");
    expect(direct.code).toBe(0);
  }, 120_000);

  it("fails, naming the metric, when the baseline is above the measured mean, and plain promptfoo fails too", async () => {
    const committed = JSON.parse(await readFile(BASELINE, "utf8")) as Baseline;
    const raised: Baseline = {
      ...committed,
      variants: {
        ...committed.variants,
        "L0+L1": { ...committed.variants["L0+L1"], "holdout:right_first_rated": 0.99 },
      },
    };
    const baseline = join(dir, "raised.json");
    await writeFile(baseline, JSON.stringify(raised));
    const out = join(dir, "raised");

    const run = await runCli(evalArgs(out, "--baseline", baseline), { cwd: dir, env });

    expect(run.code).toBe(1);
    expect(run.stdout).toContain("eval: FAILED (1 problem)");
    expect(run.stdout).toMatch(/baseline: L0\+L1 holdout:right_first_rated = 0\.\d{4} is below its baseline 0\.9900/);
    const direct = await runPromptfoo(join(out, "promptfooconfig.yaml"), env);
    expect(direct.stderr).toMatch(/lookup-knowledge gate: FAILED \(1 problem\)/);
    expect(direct.code).toBe(100);
  }, 120_000);

  it("fails on a contract violation (a trace that cannot be written), and plain promptfoo fails too", async () => {
    const out = join(dir, "contract");
    // The variant's trace file is a folder: every lookup answers, but no trace line is written.
    await mkdir(join(out, "traces", "L0-L1.jsonl"), { recursive: true });

    const run = await runCli(evalArgs(out, "--variants", "L0+L1", "--json"), { cwd: dir, env });

    expect(run.code).toBe(1);
    const summary = JSON.parse(run.stdout) as { passed: boolean; promptfooExitCode: number; problems: string[] };
    expect(summary).toMatchObject({ passed: false, promptfooExitCode: 100 });
    expect(summary.problems[0]).toMatch(
      /^contract: L0\+L1 \| vents-01: when the roof vents open: traceWritten is false/,
    );
    const direct = await runPromptfoo(join(out, "promptfooconfig.yaml"), env);
    expect(direct.code).toBe(100);
  }, 120_000);
});
