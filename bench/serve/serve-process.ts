import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BenchError } from "../bench-error.js";
import { REPO_ROOT } from "../dataset/load-scifact.js";

/** A `lookup-knowledge serve --http` child process, listening. */
export interface ServeProcess {
  url: string;
  /** What it wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM, then its exit code once it has stopped. */
  stop(): Promise<number | null>;
}

/** Starts the CLI from source (`node --import tsx src/cli/run.ts serve --http --port 0 ...args`); resolves once it listens. */
export async function startServeProcess(args: readonly string[]): Promise<ServeProcess> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  const { LOOKUP_KNOWLEDGE_MCP_TOKEN: _token, LOOKUP_KNOWLEDGE_PGVECTOR_URL: _url, ...env } = process.env;
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", tsx, join(REPO_ROOT, "src/cli/run.ts"), "serve", "--http", "--port", "0", ...args],
    { cwd: REPO_ROOT, env: { ...env, NO_COLOR: "1" }, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.setEncoding("utf8").on("data", (data: string) => {
      stderr += data;
      const found = /at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (found) resolve(found[1]);
    });
    void exited.then((code) =>
      reject(new BenchError(`serve exited (${code}) before listening: ${stderr.slice(-500)}`)),
    );
  });
  return {
    url,
    stderr: () => stderr,
    stop: async () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}
