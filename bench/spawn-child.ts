import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ChildOutput, TaskSpec } from "./tasks/task-spec.js";

const CHILD_SCRIPT = fileURLToPath(new URL("./child-main.ts", import.meta.url));

/**
 * tsx's loader as an absolute file URL, so `--import` finds it whatever the child's working
 * folder and however the parent was started (tsx, vitest, plain node).
 */
function tsxLoader(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
}

/** How one child ended: its result, or why there is none (and what it measured before). */
export type ChildOutcome<T> =
  { ok: true; result: T; wallMs: number } | { ok: false; error: string; partial?: unknown; wallMs: number };

/** Options of {@link runChild}. */
export interface RunChildOptions {
  /** Where the child writes its result file. */
  resultDir: string;
  /** The child is killed (SIGKILL) after this many milliseconds. */
  timeoutMs: number;
  /** Receives the child's stdout and stderr, line by line. @default writes them to our stderr */
  onOutput?: (chunk: string) => void;
  /**
   * The child's entry script, which takes `<spec JSON> <result file>` and writes a `ChildOutput`
   * there (another benchmark's tasks). @default bench/child-main.ts
   */
  script?: string;
}

/** The last error line the child printed ("SyntaxError: ..."), else its last non-blank lines. */
export function crashSummary(output: string): string {
  const lines = output
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith("at ") && !line.startsWith("Node.js v"));
  const errorLine = [...lines].reverse().find((line) => /^(\w+Error|Error)\b.*:/.test(line) || /^\w+Error$/.test(line));
  return errorLine ?? (lines.slice(-3).join(" | ") || "none");
}

/**
 * Runs one task in a fresh Node process (`process.execPath --expose-gc --import tsx`), and
 * reads its result from a file (the child's output streams are only logs). A crash, a kill, a
 * timeout or a missing result becomes `{ ok: false, error }` naming the task, the size and the
 * last lines the child printed.
 */
export async function runChild<T>(
  spec: TaskSpec | { task: string; size: number },
  options: RunChildOptions,
): Promise<ChildOutcome<T>> {
  const resultFile = join(options.resultDir, `${spec.task}-${spec.size}-${process.hrtime.bigint()}.json`);
  const onOutput = options.onOutput ?? ((chunk: string) => void process.stderr.write(chunk));
  const name = `${spec.task} child at ${spec.size}`;
  const start = performance.now();
  const child = spawn(
    process.execPath,
    ["--expose-gc", "--import", tsxLoader(), options.script ?? CHILD_SCRIPT, JSON.stringify(spec), resultFile],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let tail = "";
  const take = (data: Buffer) => {
    const text = data.toString("utf8");
    tail = (tail + text).slice(-4000);
    onOutput(text);
  };
  child.stdout.on("data", take);
  child.stderr.on("data", take);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, options.timeoutMs);
  const { code, signal, spawnError } = await new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    spawnError?: Error;
  }>((resolve) => {
    child.once("error", (error) => resolve({ code: null, signal: null, spawnError: error }));
    child.once("close", (code, signal) => resolve({ code, signal }));
  });
  clearTimeout(timer);
  const wallMs = performance.now() - start;
  if (spawnError) return { ok: false, error: `${name} could not start: ${spawnError.message}`, wallMs };
  if (timedOut)
    return {
      ok: false,
      error: `${name} timed out after ${Math.round(options.timeoutMs / 1000)} s and was killed`,
      wallMs,
    };
  let output: ChildOutput<T>;
  try {
    output = JSON.parse(await readFile(resultFile, "utf8")) as ChildOutput<T>;
  } catch {
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    return { ok: false, error: `${name} ${how} without a result (${crashSummary(tail)})`, wallMs };
  }
  if (!output.ok)
    return {
      ok: false,
      error: `${name} failed: ${output.error}`,
      ...(output.partial !== undefined ? { partial: output.partial } : {}),
      wallMs,
    };
  return { ok: true, result: output.result, wallMs };
}
