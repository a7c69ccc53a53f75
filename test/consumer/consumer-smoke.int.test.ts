import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const SCRIPT = join(REPO, "scripts", "consumer-smoke.mjs");
/** Pack, a fresh install (hnswlib-node compiles), two strict tsc runs and the agent call take about two minutes. */
const TIMEOUT_MS = 10 * 60_000;
const STEPS = ["pack", "contents", "install", "dedupe", "typecheck", "build", "run", "bin"] as const;

/** Why `npm pack` cannot run here, or null when it can. */
function cannotPack(): string | null {
  const npm = spawnSync("npm", ["--version"], { encoding: "utf8" });
  if (npm.error !== undefined || npm.status !== 0)
    return `npm is not runnable here (${npm.error?.message ?? `exit ${npm.status}`}), so the package cannot be packed`;
  return null;
}

function runSmoke(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT], { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (data) => (output += data));
    child.stderr.on("data", (data) => (output += data));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("the packed package in a fresh LangChain app", () => {
  it(
    "ships its docs with every link resolving, installs without peer or engine warnings, keeps one @langchain/core, type-checks strictly, runs one agent call, uses both entry points and runs the bin",
    async (ctx) => {
      const cannot = cannotPack();
      if (cannot !== null) ctx.skip(cannot);

      const { code, output } = await runSmoke();

      // The script's own lines say which step failed and show its output.
      expect(output, output).not.toMatch(/FAILED/);
      for (const step of STEPS) expect(output).toMatch(new RegExp(`^\\[consumer-smoke\\] ${step}: ok in `, "m"));
      expect(output).toMatch(
        /^\[consumer-smoke\] dedupe: ok .* - @langchain\/core@1\.3\.\d+ \(1 copy\), @langchain\/langgraph@[\d.]+ \(1 copy\)$/m,
      );
      expect(output).toMatch(
        /^\[consumer-smoke\] run: ok .* agent call ok: 1 ToolMessage, [1-9]\d* evidence block\(s\).*primary billing\/invoice-run-rollback\.md#.*lookup-knowledge\/eval ok: nDCG@10 1\.000/m,
      );
      expect(output).toMatch(/^\[consumer-smoke\] contents: ok .* - [1-9]\d* links in [1-9]\d* pages resolve/m);
      expect(output).toMatch(/^\[consumer-smoke\] all steps passed in /m);
      expect(code).toBe(0);
    },
    TIMEOUT_MS,
  );
});
