/**
 * Entry point of one sizing-bench child: `node --expose-gc --import tsx bench/vector-store/sizing-child.ts
 * <spec JSON> <result file>`, the protocol of `bench/child-main.ts` (result to the file, logs to stderr).
 */
import { writeFileSync } from "node:fs";
import { errorText } from "../bench-error.js";
import type { ChildOutput, KeepPartial } from "../tasks/task-spec.js";
import { runBuildVariant } from "./build-variant.js";
import { runLoadVariant } from "./load-variant.js";
import { runQueryVariants } from "./query-variants.js";
import type { SizingSpec } from "./sizing-spec.js";

async function runTask(spec: SizingSpec, keep: KeepPartial, log: (line: string) => void): Promise<unknown> {
  switch (spec.task) {
    case "build":
      return runBuildVariant(spec, keep, log);
    case "load":
      return runLoadVariant(spec, keep, log);
    case "query":
      return runQueryVariants(spec, keep, log);
  }
}

async function main(): Promise<number> {
  const [specText, resultFile] = process.argv.slice(2);
  if (specText === undefined || resultFile === undefined) {
    process.stderr.write("sizing child: usage: sizing-child.ts <spec JSON> <result file>\n");
    return 2;
  }
  const spec = JSON.parse(specText) as SizingSpec;
  const log = (line: string) =>
    process.stderr.write(`[${spec.task}${"variant" in spec ? ` ${spec.variant}` : ""} ${spec.size}] ${line}\n`);
  let partial: unknown;
  let output: ChildOutput<unknown>;
  try {
    output = { ok: true, result: await runTask(spec, (value) => void (partial = value), log) };
  } catch (error) {
    output = { ok: false, error: errorText(error), ...(partial !== undefined ? { partial } : {}) };
    log(error instanceof Error && error.stack ? error.stack : String(error));
  }
  writeFileSync(resultFile, JSON.stringify(output));
  return output.ok ? 0 : 1;
}

process.exitCode = await main();
