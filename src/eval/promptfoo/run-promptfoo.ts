import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { LookupKnowledgeError } from "../../errors.js";

/**
 * Finds promptfoo's CLI script, from `fromDir`'s node_modules first (the user's project), then
 * from each of `alsoFrom` (module URLs or file paths).
 * @default alsoFrom [this package]
 */
export function resolvePromptfooBin(fromDir: string = process.cwd(), alsoFrom: readonly string[] = [import.meta.url]): string | null {
  for (const base of [join(fromDir, "noop.js"), ...alsoFrom]) {
    let entry: string;
    try {
      entry = createRequire(base).resolve("promptfoo");
    } catch {
      continue;
    }
    for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
      const manifest = join(dir, "package.json");
      if (!existsSync(manifest)) continue;
      const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; bin?: string | Record<string, string> };
      if (pkg.name !== "promptfoo") continue;
      const bin = typeof pkg.bin === "string" ? pkg.bin : pkg.bin?.promptfoo;
      if (bin) return join(dir, bin);
      break;
    }
  }
  return null;
}

/** How {@link runPromptfooEval} runs promptfoo. */
export interface RunPromptfooOptions {
  /** The promptfoo config file. */
  config: string;
  /** Where promptfoo writes its JSON results (`-o`). */
  output: string;
  /** Receives promptfoo's own output, stdout and stderr alike (it is never the command's answer). */
  onOutput: (text: string) => void;
  /** The environment the CLI inherits. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** promptfoo's CLI script; `null` means not installed. @default resolvePromptfooBin() */
  bin?: string | null;
}

/**
 * Defaults for an offline run; each applies only when the user has not set the variable.
 * `PROMPTFOO_CONFIG_DIR` is left alone, so runs land in the user's own promptfoo history.
 */
export const PROMPTFOO_ENV_DEFAULTS: Readonly<Record<string, string>> = {
  PROMPTFOO_DISABLE_TELEMETRY: "1",
  PROMPTFOO_DISABLE_UPDATE: "1",
  PROMPTFOO_DISABLE_RUNTIME_WARNINGS: "1",
  PROMPTFOO_DISABLE_SHARING: "1",
};

/**
 * Runs `promptfoo eval -c <config> -o <output>` in a child process and resolves to its exit code.
 * @throws LookupKnowledgeError `INVALID_OPTION` when promptfoo is not installed.
 */
export function runPromptfooEval(options: RunPromptfooOptions): Promise<number> {
  const bin = options.bin === undefined ? resolvePromptfooBin() : options.bin;
  if (!bin) throw new LookupKnowledgeError("INVALID_OPTION", "eval --golden needs promptfoo, which is not installed; run `npm install -D promptfoo`.");
  const inherited = options.env ?? process.env;
  const env = { ...Object.fromEntries(Object.entries(PROMPTFOO_ENV_DEFAULTS).filter(([key]) => inherited[key] === undefined)), ...inherited };
  const args = [bin, "eval", "-c", options.config, "-o", options.output, "--no-cache", "--no-table", "--no-progress-bar"];
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.setEncoding("utf8").on("data", options.onOutput);
  child.stderr.setEncoding("utf8").on("data", options.onOutput);
  return new Promise((done, fail) => {
    child.on("error", fail);
    child.on("close", (code) => done(code ?? 1));
  });
}
