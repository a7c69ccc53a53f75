/**
 * Entry point of one benchmark child process: `node --import tsx bench/child-main.ts <spec JSON>
 * <result file>`. It runs one task and writes a `ChildOutput` to the result file; logs go to
 * stderr, so nothing a library prints can corrupt the result.
 */
import { writeFileSync } from "node:fs";
import { errorText } from "./bench-error.js";
import { runBuildTask } from "./tasks/build-task.js";
import { runDocumentSyncTask } from "./tasks/document-sync-task.js";
import { runFilterTask } from "./tasks/filter-task.js";
import { runIncrementalTask } from "./tasks/incremental-task.js";
import { runLoadTask } from "./tasks/load-task.js";
import { runParseTask } from "./tasks/parse-task.js";
import { runQueryTask } from "./tasks/query-task.js";
import { runReloadTask } from "./tasks/reload-task.js";
import { runServeTask } from "./tasks/serve-task.js";
import type { ChildOutput, KeepPartial, TaskSpec } from "./tasks/task-spec.js";

async function runTask(spec: TaskSpec, keep: KeepPartial, log: (line: string) => void): Promise<unknown> {
  switch (spec.task) {
    case "build":
      return runBuildTask(spec, keep, log);
    case "load":
      return runLoadTask(spec, keep, log);
    case "query":
      return runQueryTask(spec, keep, log);
    case "incremental":
      return runIncrementalTask(spec, keep, log);
    case "sync":
      return runDocumentSyncTask(spec, keep, log);
    case "filter":
      return runFilterTask(spec, keep, log);
    case "reload":
      return runReloadTask(spec, keep, log);
    case "parse":
      return runParseTask(spec, keep, log);
    case "serve":
      return runServeTask(spec, keep, log);
  }
}

async function main(): Promise<number> {
  const [specText, resultFile] = process.argv.slice(2);
  if (specText === undefined || resultFile === undefined) {
    process.stderr.write("bench child: usage: child-main.ts <spec JSON> <result file>\n");
    return 2;
  }
  const spec = JSON.parse(specText) as TaskSpec;
  const log = (line: string) => process.stderr.write(`[${spec.task} ${spec.size}] ${line}\n`);
  let partial: unknown;
  let output: ChildOutput<unknown>;
  try {
    output = { ok: true, result: await runTask(spec, (value) => void (partial = value), log) };
  } catch (error) {
    output = { ok: false, error: errorText(error), ...(partial !== undefined ? { partial } : {}) };
    if (!(error instanceof Error && error.name === "BenchError"))
      log(error instanceof Error && error.stack ? error.stack : String(error));
  }
  writeFileSync(resultFile, JSON.stringify(output));
  return output.ok ? 0 : 1;
}

process.exitCode = await main();
