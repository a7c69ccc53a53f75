/**
 * Processes and folder checks of the re-index scenarios: a save that kills itself at a chosen
 * step, the real CLI `index` command to kill from outside, and what a killed run left behind.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { errorMessage } from "../../../src/errors.js";
import { KnowledgeBase } from "../../../src/knowledge-base/knowledge-base.js";
import { REPO_ROOT } from "../../integration/helpers/integration-fixtures.js";

const SAVE_CHILD = "test/reliability/helpers/index-save-child.ts";
const SYNC_CHILD = "test/reliability/helpers/sync-save-child.ts";

/** How a child process ended. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function tsx(args: string[]): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Resolves when `child` has exited (and been reaped), with its output. */
export function exited(child: ChildProcess): Promise<ChildExit> {
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (data: string) => (stdout += data));
  child.stderr?.setEncoding("utf8").on("data", (data: string) => (stderr += data));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Builds `corpus` and saves it into `out` in a child that SIGKILLs itself at save step `killAt` (-1: never). */
export async function runSaveChild(
  corpus: string,
  out: string,
  killAt: number,
): Promise<ChildExit & { steps: Record<string, unknown>[] }> {
  const exit = await exited(tsx([SAVE_CHILD, corpus, out, String(killAt)]));
  const lines = exit.stdout.split("\n").filter((line) => line.length > 0);
  return {
    ...exit,
    steps: lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => !("saved" in line)),
  };
}

/** Syncs the documents index in `index` with the documents of `documentsFile` in a child that SIGKILLs itself at save step `killAt` (-1: never). */
export async function runSyncChild(
  documentsFile: string,
  index: string,
  killAt: number,
): Promise<ChildExit & { steps: Record<string, unknown>[] }> {
  const exit = await exited(tsx([SYNC_CHILD, documentsFile, index, String(killAt)]));
  const lines = exit.stdout.split("\n").filter((line) => line.length > 0);
  return {
    ...exit,
    steps: lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => !("saved" in line)),
  };
}

/** Starts `lookup-knowledge index --corpus <corpus> --out <out>` from the sources. */
export function spawnIndexCli(corpus: string, out: string): ChildProcess {
  return tsx(["src/cli/run.ts", "index", "--corpus", corpus, "--out", out]);
}

/** Resolves once a name that is not in `before` appears in `dir` (the save began), or when `done` settles first. */
export async function newEntryIn(dir: string, before: readonly string[], done: Promise<unknown>): Promise<boolean> {
  let finished = false;
  void done.then(() => (finished = true));
  while (!finished) {
    const now = await readdir(dir).catch(() => []);
    if (now.some((name) => !before.includes(name))) return true;
    await sleep(2);
  }
  return false;
}

/** The fingerprint of the index in `dir`, or the message of the error that stops it from loading. */
export async function loadedFingerprint(dir: string): Promise<{ fingerprint: string } | { error: string }> {
  try {
    return { fingerprint: (await KnowledgeBase.load(dir)).fingerprint };
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

/** Entries of `dir` that the loaded index does not use: leftovers of earlier runs. */
export async function indexLeftovers(dir: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as {
    generation?: string;
    checksums: Record<string, string>;
  };
  const used = new Set([
    "manifest.json",
    ...(manifest.generation === undefined ? Object.keys(manifest.checksums) : [manifest.generation]),
  ]);
  return (await readdir(dir)).filter((name) => !used.has(name)).sort();
}
