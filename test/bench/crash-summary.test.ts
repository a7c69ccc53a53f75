import { describe, expect, it } from "vitest";
import { crashSummary } from "../../bench/spawn-child.js";

describe("crashSummary", () => {
  it("picks the error line of a crash, not the stack below it", () => {
    const output = [
      "/home/user/lookup-knowledge/src/knowledge-base/update-index.ts:8",
      'import { embedChunks, embedTexts } from "./embed-chunks.js";',
      "                      ^",
      "",
      "SyntaxError: The requested module './embed-chunks.js' does not provide an export named 'embedTexts'",
      "    at ModuleJob._instantiate (node:internal/modules/esm/module_job:213:21)",
      "",
      "Node.js v20.20.2",
    ].join("\n");
    expect(crashSummary(output)).toBe(
      "SyntaxError: The requested module './embed-chunks.js' does not provide an export named 'embedTexts'",
    );
  });

  it("falls back to the last lines, or says there was no output", () => {
    expect(crashSummary("[build 1000] building\nKilled\n")).toBe("[build 1000] building | Killed");
    expect(crashSummary("")).toBe("none");
  });
});
