import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

/** ESC sequences (colour, window title, clear screen), BEL, a C1 CSI, a bidi override and a bare CR. */
const HOSTILE = "x\u001b[31mred\u001b]0;pwned\u0007\u001b[2J\u009b1m\u202eevil\rover";
/** Anything that can drive a terminal or overwrite the line it is on. */
const TERMINAL_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const TRACE_LINE = `${JSON.stringify({ type: "tool_invocation", status: "success", started_at: "2026-12-01T00:00:00Z", duration_ms: 3, input: { query: "q" } })}\n`;

describe("the CLI against hostile command lines", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "cli-hostile-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("shows control characters of a bad value as visible escapes in its one error line", async () => {
    const lines = [
      ["query", "q", `--limit=${HOSTILE}`],
      ["query", "q", `--${HOSTILE}`],
      ["query", "q", `--json=${HOSTILE}`],
      ["help", "a", HOSTILE],
      ["traces", HOSTILE],
      ["traces", "summary", `--since=${HOSTILE}`],
      ["traces", "summary", join(dir, HOSTILE)],
    ];
    for (const args of lines) {
      const { code, stdout, stderr } = await runCli(args, { cwd: dir });
      expect(stdout).toBe("");
      expect(code === 1 || code === 2).toBe(true);
      expect(stderr.endsWith("\n")).toBe(true);
      expect(stderr.slice(0, -1)).not.toMatch(TERMINAL_CONTROL);
      expect(stderr.slice(0, -1)).not.toContain("\n");
      expect(stderr).toContain("<U+001B>[31mred");
    }
  });

  it("answers `help help` with the overview instead of calling help an unknown command", async () => {
    const { code, stdout, stderr } = await runCli(["help", "help"], { cwd: dir });

    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain("Usage: lookup-knowledge <command> [options]");
  });

  it("refuses to write the --html report over the trace it reads, directly or through a symlink", async () => {
    const trace = join(dir, "trace.jsonl");
    await writeFile(trace, TRACE_LINE);
    await symlink(trace, join(dir, "report.html"));

    for (const html of [trace, join(dir, "report.html"), "./trace.jsonl"]) {
      const { code, stdout, stderr } = await runCli(["traces", "summary", trace, "--html", html], { cwd: dir });

      expect(stdout).toBe("");
      expect(code).toBe(2);
      expect(stderr).toMatch(/^lookup-knowledge: traces: --html .*is the trace file.*\n$/);
      expect(await readFile(trace, "utf8")).toBe(TRACE_LINE);
    }
  });

  it("shows a corpus folder read from a hand-edited manifest inertly in the query's warning", async () => {
    const corpus = join(dir, "kb");
    await mkdir(join(corpus, "billing"), { recursive: true });
    await writeFile(
      join(corpus, "billing", "refunds.md"),
      "---\ndomain: billing\n---\n# Refunds\n\nRefunds over 500 EUR need a second approval.\n",
    );
    const index = join(dir, "index");
    expect((await runCli(["index", "--corpus", corpus, "--out", index], { cwd: dir })).code).toBe(0);
    const manifestPath = join(index, "manifest.json");
    const manifest = JSON.parse(await readFile(manifestPath, "utf8"));
    await writeFile(
      manifestPath,
      JSON.stringify({ ...manifest, corpus: { root: `/gone${HOSTILE}`, fromIndex: "gone" } }),
    );

    const { code, stdout, stderr } = await runCli(
      ["query", "refund approval", "--index", index, "--no-trace", "--json"],
      { cwd: dir },
    );

    expect(code).toBe(0);
    expect(JSON.parse(stdout).evidence.length).toBeGreaterThan(0);
    expect(stderr).toContain("<U+001B>]0;pwned<U+0007>");
    expect(stderr.slice(0, -1)).not.toMatch(TERMINAL_CONTROL);
  });

  it("fails in one line, without waiting for a writer, when the index's manifest.json is a FIFO", async () => {
    const index = join(dir, "fifo-index");
    await mkdir(index);
    execFileSync("mkfifo", [join(index, "manifest.json")]);

    const { code, stdout, stderr } = await runCli(["query", "refund", "--index", index, "--no-trace", "--json"], {
      cwd: dir,
    });

    expect(stdout).toBe("");
    expect(code).toBe(1);
    expect(stderr).toBe(
      `lookup-knowledge: the saved index in "${index}" cannot be used (manifest.json is not a regular file). Run \`lookup-knowledge index --out ${index}\` to build it again.\n`,
    );
  }, 20_000);

  it("creates missing folders for --html, and fails in one line on a folder that can never be made instead of spinning", async () => {
    const trace = join(dir, "trace-for-html.jsonl");
    await writeFile(trace, TRACE_LINE);
    const nested = join(dir, "reports", "deep", "r.html");
    expect((await runCli(["traces", "summary", trace, "--html", nested], { cwd: dir })).code).toBe(0);
    expect(await readFile(nested, "utf8")).toContain("<h1>Trace summary</h1>");

    const { code, stdout, stderr } = await runCli(
      ["traces", "summary", trace, "--html", "/proc/no-such-folder/r.html"],
      { cwd: dir },
    );

    expect(stdout).toBe("");
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^lookup-knowledge: traces: cannot write the HTML report "\/proc\/no-such-folder\/r.html" \(ENOENT[^\n]*\); pass a writable --html path.\n$/,
    );
  }, 20_000);
});
