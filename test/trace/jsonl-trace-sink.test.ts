import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JsonlTraceSink } from "../../src/trace/jsonl-trace-sink.js";

describe("JsonlTraceSink", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "jsonl-sink-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("writes 200 concurrent appends as exactly 200 whole JSON lines", async () => {
    const path = join(dir, "nested", "trace.jsonl");
    const sink = new JsonlTraceSink(path);
    // Large records make torn or interleaved writes likely if appends were not serialised.
    const padding = "x".repeat(8_000);

    const outcomes = await Promise.all(Array.from({ length: 200 }, (_, i) => sink.append({ invocation_id: `inv-${i}`, padding })));

    expect(outcomes.every((ok) => ok === true)).toBe(true);
    const text = await readFile(path, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.slice(0, -1).split("\n");
    expect(lines).toHaveLength(200);
    const ids = lines.map((line) => (JSON.parse(line) as { invocation_id: string; padding: string }).invocation_id);
    expect(new Set(ids).size).toBe(200);
  });

  it("appends to an existing file rather than replacing it", async () => {
    const path = join(dir, "trace.jsonl");
    await writeFile(path, '{"old":true}\n');
    const sink = new JsonlTraceSink(path);

    await sink.append({ fresh: true });

    expect(await readFile(path, "utf8")).toBe('{"old":true}\n{"fresh":true}\n');
  });

  it("resolves false and reports the first error only once when the directory cannot be created", async () => {
    const blocker = join(dir, "a-regular-file");
    await writeFile(blocker, "not a directory");
    const path = join(blocker, "sub", "trace.jsonl");
    const errors: { error: unknown; path: string }[] = [];
    const sink = new JsonlTraceSink(path, { onFirstError: (error, where) => errors.push({ error, path: where }) });

    const first = await sink.append({ n: 1 });
    const rest = await Promise.all([sink.append({ n: 2 }), sink.append({ n: 3 })]);

    expect([first, ...rest]).toEqual([false, false, false]);
    expect(errors).toHaveLength(1);
    expect(errors[0].path).toBe(path);
    expect(errors[0].error).toBeInstanceOf(Error);
  });
});
