import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { BenchReport } from "../../bench/report/report-model.js";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const DATASET = process.env.LOOKUP_KNOWLEDGE_BENCH_DATASET ?? resolve(REPO, "../shared/datasets/scifact");
const HAVE_DATASET = existsSync(join(DATASET, "corpus.jsonl"));
const SYSTEMS = [
  "langgraph_floor",
  "raw_flexsearch",
  "raw_hnswlib",
  "tool",
  "l0",
  "l1",
  "embed_query",
  "trace_append",
  "langchain_ensemble",
];

function runBench(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["--import", "tsx", "bench/run-bench.ts", ...args], {
      cwd: REPO,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (data: Buffer) => void (stdout += data.toString()));
    child.stderr.on("data", (data: Buffer) => void (stderr += data.toString()));
    child.once("error", fail);
    child.once("close", (code) => done({ code, stdout, stderr }));
  });
}

describe("npm run bench -- --quick", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("refuses a missing dataset with one line that says where to get it", async () => {
    const { code, stderr } = await runBench(["--quick", "--dataset", join(tmpdir(), "no-such-scifact")]);
    expect(code).toBe(2);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/^bench: no SciFact dataset in .*no-such-scifact.*--dataset DIR/);
  });

  it.skipIf(!HAVE_DATASET)(
    `runs end to end at 1,000 chunks and writes JSON with every system and an HTML page (needs SciFact: LOOKUP_KNOWLEDGE_BENCH_DATASET or ../shared/datasets/scifact)`,
    async () => {
      const out = await mkdtemp(join(tmpdir(), "bench-quick-"));
      dirs.push(out);
      const { code, stdout, stderr } = await runBench(["--quick", "--dataset", DATASET, "--out", out]);
      expect(code, stderr.slice(-2000)).toBe(0);
      const report = JSON.parse(await readFile(join(out, "latest.json"), "utf8")) as BenchReport;
      expect(report.mode).toBe("quick");
      expect(report.failures).toEqual([]);
      expect(report.sizes.map((s) => s.size)).toEqual([1_000]);
      const [size] = report.sizes;
      expect(size.build?.chunkCount).toBe(1_000);
      expect(size.build?.indexBytes).toBeGreaterThan(0);
      expect(size.load?.loadMs).toBeGreaterThan(0);
      expect(size.query?.systems.map((s) => s.id).sort()).toEqual([...SYSTEMS].sort());
      for (const system of size.query?.systems ?? []) {
        for (const figure of [system.latency.p50, system.latency.p95, system.latency.p99, system.latency.mean])
          expect(Number.isFinite(figure), system.id).toBe(true);
        expect(system.latency.n).toBeGreaterThan(0);
      }
      expect(Number.isFinite(size.ratios?.floorP50)).toBe(true);
      expect(report.goals.length).toBeGreaterThan(0);
      const html = await readFile(join(out, "latest.html"), "utf8");
      expect(html).toContain("<svg");
      expect(html).toContain("lookup_knowledge tool (traced)");
      expect(stdout).toContain("== 1,000 chunks ==");
    },
    // The bench measures each system for a fixed budget; two test workers share the machine's cores.
    180_000,
  );
});
