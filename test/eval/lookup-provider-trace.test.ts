import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { traceLinesFor } from "../../src/eval/promptfoo/lookup-provider.js";

describe("the provider's trace read-back", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "provider-trace-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("returns this invocation's whole record and skips torn lines, blank lines and other invocations", async () => {
    const path = join(dir, "L0-L1.jsonl");
    const mine = { type: "tool_invocation", invocation_id: "inv-mine", input: { query: "refunds" } };
    const other = { type: "tool_invocation", invocation_id: "inv-other", input: { query: "what did inv-mine return?" } };
    const torn = JSON.stringify(mine).slice(0, 40);
    await writeFile(path, `${torn}\n\n${JSON.stringify(mine)}\n${JSON.stringify(other)}\n{"type":"tool_invocation","invocation_id":"inv-mine","inp`);

    expect(await traceLinesFor(path, "inv-mine")).toEqual([mine]);
  });

  it("returns no lines when the trace was never written", async () => {
    expect(await traceLinesFor(join(dir, "missing.jsonl"), "inv-mine")).toEqual([]);
  });

  it("returns no lines, for the trace assertion to fail, when the trace path is a folder", async () => {
    await mkdir(join(dir, "L0.jsonl"));
    expect(await traceLinesFor(join(dir, "L0.jsonl"), "inv-mine")).toEqual([]);
  });
});
