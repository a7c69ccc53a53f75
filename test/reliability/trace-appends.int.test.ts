import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createLookupKnowledgeTool, KnowledgeBase, type LookupResult } from "../../src/index.js";
import { readTraceFile } from "../../src/trace/read-trace-file.js";
import { MAX_TRACE_LINE_BYTES } from "../../src/trace/trace-limits.js";
import { createTempDirs, REPO_ROOT } from "../integration/helpers/integration-fixtures.js";
import { recordFigures } from "./helpers/figures.js";
import { auditTraceFile, lostIds } from "./helpers/trace-lines.js";

const CHILDREN = 6;
const APPENDS_PER_CHILD = 40;
const CHILD = "test/reliability/helpers/trace-append-child.ts";

interface ChildRun {
  code: number | null;
  written: string[];
  failed: string[];
  stderr: string;
}

/** Starts one appending child; resolves once it is ready, with a `go` that runs it to the end. */
function startChild(tracePath: string, name: string): Promise<{ go: () => Promise<ChildRun> }> {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, tracePath, name, String(APPENDS_PER_CHILD)], {
    cwd: REPO_ROOT,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
  const done = new Promise<ChildRun>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      const report = stdout.split("\n").find((line) => line.startsWith("{"));
      const parsed = report
        ? (JSON.parse(report) as { written: string[]; failed: string[] })
        : { written: [], failed: [] };
      resolve({ code, ...parsed, stderr });
    });
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.stdout.setEncoding("utf8").on("data", (data: string) => {
      const wasReady = stdout.includes("ready\n");
      stdout += data;
      if (!wasReady && stdout.includes("ready\n")) resolve({ go: () => (child.stdin.end("go\n"), done) });
    });
    child.on("close", () => resolve({ go: () => done }));
  });
}

describe("trace appends from several processes", () => {
  const temp = createTempDirs("trace-appends-");
  afterAll(() => temp.cleanup());

  it(`keeps every line whole and within 64 KiB when ${CHILDREN} processes append huge records to one file at once`, async () => {
    const tracePath = join(await temp.make(), "traces", "tool_invocation.jsonl");
    const children = await Promise.all(Array.from({ length: CHILDREN }, (_, i) => startChild(tracePath, `child${i}`)));

    const runs = await Promise.all(children.map((child) => child.go()));

    const written = runs.flatMap((run) => run.written);
    const audit = await auditTraceFile(tracePath, MAX_TRACE_LINE_BYTES);
    const lost = lostIds(written, audit.ids);
    const crashes = runs.filter((run) => run.code !== 0).length;
    recordFigures({
      scenario: `trace appends from ${CHILDREN} processes (1 MB titles, 10,000 hit reasons, lines at the bound)`,
      inputsTried: runs.reduce((sum, run) => sum + run.written.length + run.failed.length, 0),
      faultsInjected: 0,
      linesLost: lost.length,
      crashes,
    });

    expect(runs.map((run) => run.stderr).join("")).toBe("");
    expect(crashes).toBe(0);
    expect(written).toHaveLength(CHILDREN * APPENDS_PER_CHILD);
    expect(audit.endsWithNewline).toBe(true);
    expect(audit.broken.length, "torn or glued lines").toBe(0);
    expect(audit.oversized).toBe(0);
    // A blank line is allowed: a process that read the end of the file while another was writing starts on a fresh line.
    expect(audit.records).toBe(written.length);
    expect(lost).toEqual([]);
  });

  it("bounds the trace line of a real lookup over a document whose frontmatter title is 1 MB", async () => {
    const root = await temp.make();
    const corpus = join(root, "kb");
    await mkdir(join(corpus, "billing"), { recursive: true });
    const title = `Refund approval${" limits".repeat(150_000)}`;
    await writeFile(
      join(corpus, "billing", "huge.md"),
      `---\ntitle: "${title}"\ndomain: billing\nkeywords: [refund, approval]\n---\nRefunds above 5,000 need a second approval.\n\n## Limits\nTeam leads approve refunds up to 5,000.\n`,
    );
    await writeFile(
      join(corpus, "billing", "invoices.md"),
      "---\ntitle: Invoice runs\ndomain: billing\n---\nInvoices run nightly; a refund reverses an invoice line.\n",
    );
    const kb = await KnowledgeBase.build({ corpusDir: corpus, onWarning: () => {} });
    const tracePath = join(root, "traces", "tool_invocation.jsonl");
    const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath });
    const calls = 30;

    const messages = await Promise.all(
      Array.from({ length: calls }, (_, i) =>
        lookup.invoke({
          type: "tool_call",
          id: `call_${i}`,
          name: lookup.name,
          args: { query: "refund approval limits", limit: 5 },
        }),
      ),
    );

    const results = messages.map((message) => message.artifact as LookupResult);
    const written = results.filter((result) => result.traceWritten).map((result) => result.invocationId);
    const audit = await auditTraceFile(tracePath, MAX_TRACE_LINE_BYTES);
    const lost = lostIds(written, audit.ids);
    recordFigures({
      scenario: "trace lines of real lookups over a 1 MB frontmatter title",
      inputsTried: calls,
      faultsInjected: 0,
      linesLost: lost.length,
      crashes: 0,
    });

    // The corpus holds the 1 MB title and the lookups found its document.
    expect(kb.chunks.some((chunk) => chunk.title === title)).toBe(true);
    expect(
      results.every((result) => result.evidence.some((block) => block.source.startsWith("billing/huge.md#"))),
    ).toBe(true);
    expect(written).toHaveLength(calls);
    expect(audit).toMatchObject({ records: calls, blank: 0, oversized: 0, endsWithNewline: true });
    expect(audit.broken.length, "torn or glued lines").toBe(0);
    expect(lost).toEqual([]);
    const { records, skippedLines } = await readTraceFile(tracePath);
    expect(skippedLines).toBe(0);
    expect(records.map((record) => record.invocation_id).sort()).toEqual([...written].sort());
    expect(JSON.stringify(records)).not.toContain("limits ".repeat(100));
  });
});
