import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { BenchError } from "../bench-error.js";
import { crashSummary } from "../spawn-child.js";
import { processMemory } from "./process-memory.js";
import type { ServerMemory } from "./sizing-spec.js";

const SERVER_SCRIPT = fileURLToPath(new URL("./pg-server-main.ts", import.meta.url));

/** A PGlite server running in a child process. */
export interface PgServerProcess {
  url: string;
  pid: number;
  memory(): Promise<ServerMemory>;
  stop(): Promise<void>;
}

/**
 * Starts `pg-server-main.ts` in a child Node process and waits for its URL.
 * @throws BenchError when it exits or prints nothing usable within `timeoutMs`.
 */
export async function startPgServerProcess(timeoutMs = 60_000): Promise<PgServerProcess> {
  const loader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  const child: ChildProcess = spawn(process.execPath, ["--import", loader, SERVER_SCRIPT], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let tail = "";
  child.stderr?.on("data", (data: Buffer) => void (tail = (tail + data.toString("utf8")).slice(-4000)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(
      () => reject(new BenchError(`the PGlite server did not start within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    child.stdout?.on("data", (data: Buffer) => {
      out += data.toString("utf8");
      const line = out.split("\n").find((text) => text.startsWith("{"));
      if (line === undefined) return;
      clearTimeout(timer);
      try {
        resolve((JSON.parse(line) as { url: string }).url);
      } catch (error) {
        reject(new BenchError(`the PGlite server printed ${JSON.stringify(line)}`, { cause: error }));
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new BenchError(`the PGlite server exited (${signal ?? code}) before it listened (${crashSummary(tail)})`));
    });
  });
  const pid = child.pid ?? -1;
  return {
    url,
    pid,
    memory: () => processMemory(pid),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
