import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_REPO_ROOT, linesOf, runCli, type CliRun } from "../helpers/run-cli.js";

const CLI_TIMEOUT = 120_000;
const COMMAND_NAMES = ["index", "query", "eval", "traces"];

/** A usage error: exit 2, nothing on stdout, one line on stderr naming the command's --help. */
function expectUsageError(run: CliRun, help: string): string {
  expect(run.code).toBe(2);
  expect(run.stdout).toBe("");
  const lines = linesOf(run.stderr);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^lookup-knowledge: /);
  expect(lines[0]).toContain(`Run \`lookup-knowledge ${help}\` for usage.`);
  return lines[0];
}

describe("the CLI's conventions", () => {
  it(
    "prints each command's help for `<command> --help`, `-h` and `help <command>`, on stdout with exit 0",
    async () => {
      const runs = await Promise.all(
        COMMAND_NAMES.map(
          async (name) =>
            [name, await runCli([name, "--help"]), await runCli(["help", name]), await runCli([name, "-h"])] as const,
        ),
      );
      for (const [name, flag, help, short] of runs) {
        expect(flag.code).toBe(0);
        expect(flag.stderr).toBe("");
        expect(flag.stdout.startsWith(`Usage: lookup-knowledge ${name}`)).toBe(true);
        expect(flag.stdout).toContain("-h, --help");
        expect(help).toEqual(flag);
        expect(short).toEqual(flag);
      }
    },
    CLI_TIMEOUT,
  );

  it(
    "lists every command in the overview, with and without --help",
    async () => {
      const [bare, help] = await Promise.all([runCli([]), runCli(["--help"])]);
      expect(bare.code).toBe(0);
      expect(bare).toEqual(help);
      for (const name of [...COMMAND_NAMES, "help"]) expect(help.stdout).toMatch(new RegExp(`^  ${name} +\\S`, "m"));
      expect(help.stdout).toContain("Exit codes: 0 success, 1 the command failed, 2 the command line is wrong.");
    },
    CLI_TIMEOUT,
  );

  it(
    "prints the version of package.json for --version and -V",
    async () => {
      const { version } = JSON.parse(await readFile(join(CLI_REPO_ROOT, "package.json"), "utf8")) as {
        version: string;
      };
      for (const run of await Promise.all([runCli(["--version"]), runCli(["-V"])])) {
        expect(run).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
      }
    },
    CLI_TIMEOUT,
  );

  it(
    "exits 2 with one line for an unknown command, suggesting the closest one",
    async () => {
      const [typo, unknown, help] = await Promise.all([
        runCli(["qeury", "x"]),
        runCli(["frobnicate"]),
        runCli(["help", "frobnicate"]),
      ]);
      expect(expectUsageError(typo, "--help")).toContain(
        'unknown command "qeury" (did you mean query?); the commands are index, query, serve, eval, traces, verify, help.',
      );
      expect(expectUsageError(unknown, "--help")).toContain('unknown command "frobnicate"');
      expect(expectUsageError(help, "--help")).toContain('unknown command "frobnicate"');
    },
    CLI_TIMEOUT,
  );

  it(
    "exits 2 with one line naming the flag for an unknown flag, a missing value, a value given to a switch and a bad --limit",
    async () => {
      const [unknown, missing, switched, limit, range, question] = await Promise.all([
        runCli(["query", "refunds", "--nope"]),
        runCli(["query", "refunds", "--domain"]),
        runCli(["query", "refunds", "--json=x"]),
        runCli(["query", "refunds", "--limit", "abc"]),
        runCli(["query", "refunds", "--limit", "99"]),
        runCli(["query"]),
      ]);
      expect(expectUsageError(unknown, "query --help")).toContain("unknown option --nope");
      expect(expectUsageError(missing, "query --help")).toContain("--domain needs a value: --domain D.");
      expect(expectUsageError(switched, "query --help")).toContain("--json takes no value, got --json=x.");
      expect(expectUsageError(limit, "query --help")).toContain(
        '--limit must be a whole number from 1 to 20, got "abc".',
      );
      expect(expectUsageError(range, "query --help")).toContain(
        '--limit must be a whole number from 1 to 20, got "99".',
      );
      expect(expectUsageError(question, "query --help")).toContain("missing <question>");
    },
    CLI_TIMEOUT,
  );

  it(
    "exits 2 for an unknown flag of index and for an option before the command",
    async () => {
      const [index, before] = await Promise.all([runCli(["index", "--corpsu", "kb"]), runCli(["--nope"])]);
      expect(expectUsageError(index, "index --help")).toContain("unknown option --corpsu (did you mean --corpus?)");
      expect(expectUsageError(before, "--help")).toContain("unknown option --nope");
    },
    CLI_TIMEOUT,
  );
});
