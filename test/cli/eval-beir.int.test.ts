import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type CliRun } from "../helpers/run-cli.js";

const CLI_TIMEOUT = 120_000;
const DATASET = "test/fixtures/beir-mini";

describe("lookup-knowledge eval --dataset", () => {
  let out: string;
  let json: CliRun;

  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), "lk-eval-beir-"));
    json = await runCli(["eval", "--dataset", DATASET, "--out", join(out, "json"), "--json"]);
  }, CLI_TIMEOUT);
  afterAll(() => rm(out, { recursive: true, force: true }));

  it("prints only JSON on stdout with --json, with the weight in effect, latency and the significance tests", () => {
    expect(json.code).toBe(0);
    const summary = JSON.parse(json.stdout) as Record<string, unknown> & {
      variants: { name: string; "nDCG@10": number; latency: { p50Ms: number; p99Ms: number } }[];
      significance: { comparisons: unknown[] };
    };
    expect(summary.split).toBe("test");
    expect(summary.l0Weight).toBe(0.8);
    expect(summary.variants.map((v) => v.name)).toEqual(["L0", "L1", "L0+L1"]);
    for (const variant of summary.variants) {
      expect(variant["nDCG@10"]).toBeGreaterThanOrEqual(0);
      expect(variant.latency.p99Ms).toBeGreaterThanOrEqual(variant.latency.p50Ms);
    }
    expect(summary.significance.comparisons).toHaveLength(3);
  });

  it("writes progress and notes to stderr with --json", () => {
    expect(json.stderr).toContain("6 documents indexed");
    expect(json.stderr).toContain("calibration:");
    expect(json.stderr).toMatch(/L0\+L1 vs L0: Δ nDCG@10 [+-]\d\.\d{4} over 3 queries, randomisation p /);
    expect(json.stdout).not.toContain("documents indexed");
  });

  it("writes results.json with the ranked lists and a report that marks gold documents", async () => {
    const results = JSON.parse(await readFile(join(out, "json", "results.json"), "utf8")) as {
      config: { l0Weight: unknown };
      rankings: { gold: Record<string, string[]> };
    };
    expect(results.config.l0Weight).toBe(0.8);
    expect(Object.keys(results.rankings.gold)).toHaveLength(3);
    const html = await readFile(join(out, "json", "report.html"), "utf8");
    expect(html).toContain('<td class="gold">');
    expect(html).toContain('<h2 id="significance">');
  });

  it(
    "prints only the metrics table on stdout without --json",
    async () => {
      const run = await runCli(["eval", "--dataset", DATASET, "--out", join(out, "table"), "--variants", "L0"]);
      expect(run.code).toBe(0);
      const lines = run.stdout.trimEnd().split("\n");
      expect(lines[0]).toMatch(/^variant\s+nDCG@10\s+Recall@10\s+Recall@100\s+MRR@10\s+p50 ms\s+p95 ms\s+p99 ms$/);
      expect(lines).toHaveLength(3);
      expect(lines[2]).toMatch(/^L0 only\s+\d\.\d{4}/);
      expect(run.stdout).not.toContain("{");
      expect(run.stderr).toContain("documents indexed");
    },
    CLI_TIMEOUT,
  );

  it(
    "exits 2 with one line naming the value for --depth abc",
    async () => {
      const run = await runCli(["eval", "--dataset", DATASET, "--depth", "abc"]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toContain('--depth must be a whole number from 1 to 10000, got "abc"');
    },
    CLI_TIMEOUT,
  );

  it(
    "exits 2 with one line listing the known variants for an unknown variant",
    async () => {
      const run = await runCli(["eval", "--dataset", DATASET, "--variants", "L0,L2"]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toContain('unknown variant "L2"; use a comma-separated list of L0, L1, L0+L1');
    },
    CLI_TIMEOUT,
  );
});
