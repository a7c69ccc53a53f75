/**
 * Runs the lookup-knowledge CLI from source for the hostile-corpus scenario, as `nobody` when the
 * tests run as root, so that file permissions apply to it as they would to any user.
 */
import { spawn } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** Uid and gid of `nobody`. */
const NOBODY = 65534;

/** True when this process is root, which reads files whatever their permissions. */
export const RUNNING_AS_ROOT = process.getuid?.() === 0;

/** What one CLI run printed and how it ended. */
export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `src/cli/run.ts` with `args` in the repository root, unprivileged when this process is root. */
export function runCliUnprivileged(args: string[]): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/run.ts", ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
      ...(RUNNING_AS_ROOT ? { uid: NOBODY, gid: NOBODY } : {}),
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (data: string) => (stdout += data));
    child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
    child.on("error", fail);
    child.on("close", (code, signal) => done({ code, signal, stdout, stderr }));
  });
}
