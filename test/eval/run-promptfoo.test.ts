import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolvePromptfooBin, runPromptfooEval } from "../../src/eval/promptfoo/run-promptfoo.js";

describe("finding and running promptfoo", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "lk-no-promptfoo-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("finds promptfoo's CLI script from the project, else from this package", () => {
    const fromProject = resolvePromptfooBin(process.cwd(), []);
    expect(fromProject).toMatch(/node_modules[\\/]promptfoo[\\/]dist[\\/]src[\\/]entrypoint\.js$/);
    expect(existsSync(fromProject!)).toBe(true);
    expect(resolvePromptfooBin(dir)).toBe(fromProject);
  });

  it("finds nothing in a folder without promptfoo, and then says in one line how to install it", () => {
    expect(resolvePromptfooBin(dir, [])).toBeNull();
    expect(() => runPromptfooEval({ config: "c.yaml", output: "o.json", onOutput: () => undefined, bin: null })).toThrow(
      "lookup-knowledge: eval --golden needs promptfoo, which is not installed; run `npm install -D promptfoo`.",
    );
  });
});
