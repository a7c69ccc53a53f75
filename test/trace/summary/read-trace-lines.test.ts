import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_LINE_READ_BYTES, readTraceLines } from "../../../src/trace/summary/read-trace-lines.js";
import { summarizeTraceFile } from "../../../src/trace/summary/summarize-trace-file.js";

async function linesOf(path: string) {
  const seen: string[] = [];
  const skipped: boolean[] = [];
  await readTraceLines(path, { addLine: (line) => seen.push(line), skipLine: (partial) => skipped.push(partial) });
  return { seen, skipped };
}

describe("readTraceLines", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "trace-lines-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("hands over every newline-terminated line, multi-byte characters across chunk boundaries intact", async () => {
    const path = join(dir, "utf8.jsonl");
    // 70,000 lines of 2-byte characters: the stream's 64 KiB chunks end inside characters and lines.
    const lines = Array.from({ length: 70_000 }, (_, i) => `é${i}ü`);
    await writeFile(path, `${lines.join("\n")}\n`);

    const { seen, skipped } = await linesOf(path);

    expect(seen).toEqual(lines);
    expect(skipped).toEqual([]);
  });

  it("skips the text after the last newline as a partial line", async () => {
    const path = join(dir, "partial.jsonl");
    await writeFile(path, '{"a":1}\n{"b":2}\n{"c":');

    expect(await linesOf(path)).toEqual({ seen: ['{"a":1}', '{"b":2}'], skipped: [true] });
  });

  it("drops a line longer than the read bound without holding it, and goes on with the next", async () => {
    const path = join(dir, "huge.jsonl");
    await writeFile(path, `{"a":1}\n${"x".repeat(MAX_LINE_READ_BYTES + 10)}\n{"b":2}\n`);

    expect(await linesOf(path)).toEqual({ seen: ['{"a":1}', '{"b":2}'], skipped: [false] });
  });

  it("fails with one line naming a missing file", async () => {
    await expect(summarizeTraceFile(join(dir, "missing.jsonl"))).rejects.toMatchObject({
      code: "TRACE_UNAVAILABLE",
      message: expect.stringMatching(/^[^\n]*missing\.jsonl[^\n]*$/),
    });
  });

  it("refuses a folder", async () => {
    await expect(summarizeTraceFile(dir)).rejects.toMatchObject({
      code: "TRACE_UNAVAILABLE",
      message: expect.stringContaining("a directory"),
    });
  });
});
