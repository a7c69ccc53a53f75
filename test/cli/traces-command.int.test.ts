import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import {
  expectedPercentile,
  generatedRecord,
  writeGeneratedTrace,
  type GeneratedRecord,
} from "../trace/summary/helpers/generated-trace.js";

const RECORDS = 100_000;

describe("lookup-knowledge traces summary", () => {
  let dir: string;
  let tracePath: string;
  const durations: number[] = [];
  const status: Record<string, number> = {};

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "traces-cli-"));
    tracePath = join(dir, "tool_invocation.jsonl");
    await writeGeneratedTrace(tracePath, RECORDS);
    for (let i = 0; i < RECORDS; i++) {
      const record = generatedRecord(i) as unknown as GeneratedRecord;
      durations.push(record.duration_ms);
      status[record.status] = (status[record.status] ?? 0) + 1;
    }
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("prints pure JSON with --json: exact counts and percentiles of a 100,000-record file, skipped lines counted", async () => {
    const { code, stdout, stderr } = await runCli(["traces", "summary", tracePath, "--json"]);

    expect(stderr).toBe("");
    expect(code).toBe(0);
    const summary = JSON.parse(stdout);
    expect(summary.file).toBe(tracePath);
    expect(summary.lines).toMatchObject({
      records: RECORDS,
      skipped: 9 * 3 + 1,
      partialLastLine: true,
      otherRecords: 9,
    });
    expect(summary.status).toEqual(status);
    expect(summary.latencyMs.duration).toMatchObject({
      count: RECORDS,
      p50: expectedPercentile(durations, 50),
      p95: expectedPercentile(durations, 95),
      p99: expectedPercentile(durations, 99),
    });
  });

  it("prints tables by default, with the skipped lines and escaped query text", async () => {
    const { code, stdout } = await runCli(["traces", "summary", tracePath, "--top", "40"]);

    expect(code).toBe(0);
    expect(stdout).toContain("28 lines skipped (a partial last line included)");
    expect(stdout).toMatch(/Fallback reason:\n {2}none +\d+/);
    expect(stdout).toContain("Top queries with no evidence:");
    expect(stdout).toContain("evil \\u{001b}[31mred");
    expect(stdout).not.toContain("\u001b");
  });

  it("writes a self-contained HTML report with --html and keeps stdout for the answer", async () => {
    const html = join(dir, "report", "summary.html");
    const { code, stdout, stderr } = await runCli([
      "traces",
      "summary",
      tracePath,
      "--since",
      "2026-11-01T12:00Z",
      "--json",
      "--html",
      html,
    ]);

    expect(code).toBe(0);
    expect(JSON.parse(stdout).lines).toMatchObject({ records: RECORDS - 12 * 3600, outsideWindow: 12 * 3600 });
    expect(stderr).toContain(html);
    const page = await readFile(html, "utf8");
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).not.toMatch(/<script|<link|src=/);
  });

  it("fails with one line and exit code 1 when the file does not exist", async () => {
    const { code, stdout, stderr } = await runCli(["traces", "summary", join(dir, "nope.jsonl")]);

    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(stderr).toContain("nope.jsonl");
  });

  it("reads the default trace path when no FILE is given", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "traces-default-"));
    try {
      const { code, stderr } = await runCli(["traces", "summary"], { cwd });
      expect(code).toBe(1);
      expect(stderr).toContain("traces/tool_invocation.jsonl");
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  it.each([
    [["traces", "summary", "x.jsonl", "--since", "yesterday"], "--since"],
    [["traces", "summary", "x.jsonl", "--top", "0"], "--top"],
    [["traces", "summarise"], "summarise"],
    [["traces"], "summary"],
    [["traces", "summary", "a.jsonl", "b.jsonl"], "b.jsonl"],
  ])("exits 2 with one usage line for %j", async (args, named) => {
    const { code, stderr } = await runCli(args);

    expect(code).toBe(2);
    expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(stderr).toContain(named);
  });

  it("summarises an empty file as zero records", async () => {
    const empty = join(dir, "empty.jsonl");
    await writeFile(empty, "");
    const { code, stdout } = await runCli(["traces", "summary", empty, "--json"]);

    expect(code).toBe(0);
    expect(JSON.parse(stdout).lines).toMatchObject({ read: 0, records: 0, skipped: 0, partialLastLine: false });
  });
});
