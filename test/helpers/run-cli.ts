import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The repository root (this file lives in `test/helpers`). */
export const CLI_REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The CLI's entry point, run from its TypeScript sources. */
export const CLI_ENTRY = join(CLI_REPO_ROOT, "src/cli/run.ts");

/** tsx's loader by absolute URL, so that the CLI also runs with a `cwd` outside the repository. */
export const TSX_LOADER = pathToFileURL(join(CLI_REPO_ROOT, "node_modules/tsx/dist/loader.mjs")).href;

/** Options of {@link runCli}. */
export interface RunCliOptions {
  /** Working folder of the CLI process. @default the repository root */
  cwd?: string;
  /**
   * Variables added to (or, when undefined, removed from) the environment. The environment is this
   * process's, with `NO_COLOR=1` and without `LOOKUP_KNOWLEDGE_PGVECTOR_URL` (a test names its store).
   * @default {}
   */
  env?: Record<string, string | undefined>;
  /** Text written to the CLI's stdin, which is then closed. @default stdin is closed at once */
  input?: string;
}

/** What one CLI run did: its exit code (null when killed by a signal) and everything it printed. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `lookup-knowledge ...args` as a child process (`node --import tsx <repo>/src/cli/run.ts`)
 * and resolves once it exits, with its exit code and its whole stdout and stderr.
 * @example
 * const { code, stdout } = await runCli(["query", "rotate an API key", "--json", "--no-trace"]);
 */
export function runCli(args: readonly string[], options: RunCliOptions = {}): Promise<CliRun> {
  const { LOOKUP_KNOWLEDGE_PGVECTOR_URL: _ignored, ...inherited } = process.env;
  const env: NodeJS.ProcessEnv = { ...inherited, NO_COLOR: "1" };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["--import", TSX_LOADER, CLI_ENTRY, ...args], {
      cwd: options.cwd ?? CLI_REPO_ROOT,
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (data: string) => (stdout += data));
    child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.input ?? "");
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

/** The lines of `text` that are not empty. */
export function linesOf(text: string): string[] {
  return text.split("\n").filter((line) => line.trim() !== "");
}
