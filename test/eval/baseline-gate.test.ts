import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Baseline } from "../../src/eval/promptfoo/baseline.js";
import { afterAll as gateHook, GATE_METADATA_KEY, judgeRun, missingResults, type AfterAllContext } from "../../src/eval/promptfoo/baseline-gate.js";

type Row = AfterAllContext["results"][number];

const row = (description: string, nDCG: number): Row => ({
  provider: { id: "p", label: "L0+L1" },
  success: true,
  failureReason: 0,
  namedScores: { "nDCG@10": nDCG },
  testCase: { description },
  response: { metadata: { variant: "L0+L1", corpusFingerprint: "fp" } },
});

/** Two cases of one variant: mean nDCG@10 0.6. */
const CONTEXT: AfterAllContext = { results: [row("a", 0.8), row("b", 0.4)], suite: { tests: [{}, {}], providers: [{}], prompts: [{}] } };
const baselineOf = (nDCG: number): Baseline => ({ corpusFingerprint: "fp", tolerance: 0.0005, variants: { "L0+L1": { "nDCG@10": nDCG } } });

describe("the baseline gate (promptfoo afterAll hook)", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "lk-gate-"));
  });
  afterEach(async () => {
    process.exitCode = undefined;
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  it("passes when every mean reaches the baseline and fails, naming the metric, when one does not", async () => {
    const baseline = join(dir, "baseline.json");
    await writeFile(baseline, JSON.stringify(baselineOf(0.6)));
    expect(await judgeRun(CONTEXT, { baseline })).toEqual({ passed: true, problems: [], baseline, wroteBaseline: false });
    await writeFile(baseline, JSON.stringify(baselineOf(0.7)));
    expect((await judgeRun(CONTEXT, { baseline })).problems).toEqual(["baseline: L0+L1 nDCG@10 = 0.6000 is below its baseline 0.7000"]);
  });

  it("names --update-baseline when the baseline does not exist, and writes it when asked to", async () => {
    const baseline = join(dir, "new", "baseline.json");
    expect((await judgeRun(CONTEXT, { baseline })).problems[0]).toMatch(/does not exist: run `lookup-knowledge eval \.\.\. --update-baseline` once/);
    expect(await judgeRun(CONTEXT, { baseline, updateBaseline: true })).toMatchObject({ passed: true, wroteBaseline: true });
    expect(JSON.parse(await readFile(baseline, "utf8"))).toMatchObject({ corpusFingerprint: "fp", variants: { "L0+L1": { "nDCG@10": 0.6 } } });
  });

  it("fails a run whose results promptfoo did not all store, and never makes it the baseline", async () => {
    const partial: AfterAllContext = { ...CONTEXT, suite: { tests: [{}, {}, {}], providers: [{}], prompts: [{}] } };
    expect(missingResults(partial)).toEqual([expect.stringMatching(/^promptfoo stored only 2 of 3 results/)]);
    const verdict = await judgeRun(partial, { baseline: join(dir, "b.json"), updateBaseline: true });
    expect(verdict).toMatchObject({ passed: false, wroteBaseline: false });
  });

  it("never makes a run with an errored call or a broken contract check the baseline, and lists its problems on one line each", async () => {
    const errored: Row = { ...row("c", 0), success: false, failureReason: 2, error: "Template render error: (unknown path)\n  ReferenceError: boom\n    at Object._prettifyError (lib.js:32:11)" };
    const baseline = join(dir, "b.json");
    const verdict = await judgeRun({ results: [row("a", 0.8), errored], suite: { tests: [{}, {}], providers: [{}], prompts: [{}] } }, { baseline, updateBaseline: true });
    expect(verdict).toMatchObject({ passed: false, wroteBaseline: false });
    await expect(readFile(baseline, "utf8")).rejects.toThrow(/ENOENT/);
    expect(verdict.problems).toContain("error: L0+L1 | c: Template render error: (unknown path) ReferenceError: boom");
    expect(verdict.problems.some((line) => line.startsWith("--update-baseline: did not write"))).toBe(true);
    expect(verdict.problems.every((line) => !line.includes("\n"))).toBe(true);
    expect(verdict.problems.some((line) => line.includes("does not exist"))).toBe(false);
  });

  it("sets promptfoo's exit code to 100 and writes gate.json when the gate fails, and leaves it alone when it passes", async () => {
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const baseline = join(dir, "baseline.json");
    await writeFile(baseline, JSON.stringify(baselineOf(0.9)));
    const config = { metadata: { [GATE_METADATA_KEY]: { baseline, out: dir } } };

    await gateHook({ ...CONTEXT, config });
    expect(process.exitCode).toBe(100);
    expect(JSON.parse(await readFile(join(dir, "gate.json"), "utf8"))).toMatchObject({ passed: false, problems: [expect.stringContaining("nDCG@10")] });

    process.exitCode = undefined;
    await writeFile(baseline, JSON.stringify(baselineOf(0.5)));
    await gateHook({ ...CONTEXT, config });
    expect(process.exitCode).toBeUndefined();
  });

  it("fails a config without the gate's settings instead of passing it", async () => {
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    await gateHook({ ...CONTEXT, config: { metadata: {} } });
    expect(process.exitCode).toBe(100);
  });
});
