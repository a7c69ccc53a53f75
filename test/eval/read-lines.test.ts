import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readLines } from "../../src/eval/beir/read-lines.js";

const dirs: string[] = [];
async function fileWith(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "lk-read-lines-"));
  dirs.push(dir);
  const file = join(dir, "rows.jsonl");
  await writeFile(file, text);
  return file;
}
async function texts(file: string, max?: number): Promise<string[]> {
  const out: string[] = [];
  for await (const line of readLines(file, max)) out.push(line.text);
  return out;
}
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe("readLines", () => {
  it("reads lines up to the length cap, CRLF and a BOM included", async () => {
    const file = await fileWith(`\uFEFFa\r\nbb\n${"x".repeat(100)}\nlast`);
    expect(await texts(file, 100)).toEqual(["a", "bb", "x".repeat(100), "last"]);
  });

  it("fails with DATASET_INVALID naming the file when a line is longer than the cap", async () => {
    const file = await fileWith(`a\n${"x".repeat(101)}\nb\n`);
    await expect(texts(file, 100)).rejects.toMatchObject({ code: "DATASET_INVALID", message: expect.stringContaining("a line is longer than 100 characters") });
  });

  it("stops reading an endless line instead of filling memory", async () => {
    await expect(texts("/dev/zero", 1024 * 1024)).rejects.toMatchObject({ code: "DATASET_INVALID", message: expect.stringContaining("/dev/zero") });
  });
});
