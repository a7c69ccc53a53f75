import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_CORPUS_OPTIONS, resolveCorpusOptions } from "../../src/corpus/corpus-options.js";
import { loadCorpus, type PreviousFiles } from "../../src/corpus/load-corpus.js";
import { createTempCorpora } from "./helpers/temp-corpus.js";

const temp = createTempCorpora("lk-limits-");
afterAll(() => temp.cleanup());

async function corpusOf(files: Record<string, string>): Promise<string> {
  const dir = await temp.make();
  await temp.write(dir, files);
  return dir;
}

describe("corpus limits: options", () => {
  it("documents defaults that no ordinary corpus reaches", () => {
    expect(DEFAULT_CORPUS_OPTIONS).toMatchObject({ maxChunkBytes: 65_536, maxChunksPerFile: 10_000, maxFiles: 1_000_000 });
    expect(resolveCorpusOptions()).toMatchObject({ maxChunkBytes: 65_536, maxChunksPerFile: 10_000, maxFiles: 1_000_000 });
  });

  it("refuses a limit that is not a whole number in range, naming the option", () => {
    expect(() => resolveCorpusOptions({ maxChunkBytes: 3 })).toThrow(/corpus\.maxChunkBytes must be a whole number of bytes from 4, got 3/);
    expect(() => resolveCorpusOptions({ maxChunksPerFile: 0 })).toThrow(/corpus\.maxChunksPerFile/);
    expect(() => resolveCorpusOptions({ maxFiles: 1.5 })).toThrow(/corpus\.maxFiles/);
  });
});

describe("corpus limits: maxChunkBytes", () => {
  it("splits a long section into chunks within the limit and notes the file once, naming the limit", async () => {
    const dir = await corpusOf({ "long.md": `# Long\n\n${"z".repeat(2_500)}\n\n# Other\n\n${"w".repeat(1_500)}\n`, "short.md": "Short.\n" });
    const corpus = await loadCorpus(dir, { maxChunkBytes: 1_000 });
    const long = corpus.chunks.filter((chunk) => chunk.file === "long.md");
    expect(long.map((chunk) => chunk.source)).toEqual(["long.md#long", "long.md#long/2", "long.md#long/3", "long.md#other", "long.md#other/2"]);
    for (const chunk of long) expect(Buffer.byteLength(chunk.content)).toBeLessThanOrEqual(1_000);
    expect(corpus.notes).toEqual([
      { file: "long.md", note: "split 2 sections over corpus.maxChunkBytes (1000 bytes) into 5 chunks; raise corpus.maxChunkBytes to keep sections whole" },
    ]);
    expect(corpus.files.find((file) => file.file === "long.md")?.chunkCount).toBe(5);
    expect(corpus.skipped).toEqual([]);
  });

  it("chunks a file again when its earlier chunks are over a limit lowered since", async () => {
    const dir = await corpusOf({ "long.md": `# Long\n\n${"z".repeat(2_500)}\n` });
    const first = await loadCorpus(dir);
    expect(first.chunks).toHaveLength(1);
    const previous: PreviousFiles = new Map(first.files.map((file) => [file.file, { sha256: file.sha256, stamp: file.stamp, chunks: first.chunks }]));
    const again = await loadCorpus(dir, { maxChunkBytes: 1_000 }, previous);
    expect(again.chunks).toHaveLength(3);
    expect(again.reused.size).toBe(0);
    const same = await loadCorpus(dir, {}, previous);
    expect(same.reused).toEqual(new Set(["long.md"]));
  });
});

describe("corpus limits: maxChunksPerFile", () => {
  it("skips a file that would give more chunks, whole, with a reason naming the limit", async () => {
    const sections = Array.from({ length: 6 }, (_, i) => `## Part ${i}\n\nText ${i}.`).join("\n\n");
    const dir = await corpusOf({ "many.md": sections, "few.md": "## One\n\nA.\n\n## Two\n\nB.\n" });
    const corpus = await loadCorpus(dir, { maxChunksPerFile: 5 });
    expect(corpus.chunks.map((chunk) => chunk.file)).toEqual(["few.md", "few.md"]);
    expect(corpus.skipped).toEqual([
      { file: "many.md", reason: expect.stringMatching(/^too many chunks: 6, more than corpus\.maxChunksPerFile \(5\); the file is skipped whole/) },
    ]);
  });

  it("counts the parts of split sections against the limit", async () => {
    const dir = await corpusOf({ "long.md": `# Long\n\n${"z".repeat(2_500)}\n` });
    const corpus = await loadCorpus(dir, { maxChunkBytes: 1_000, maxChunksPerFile: 2 });
    expect(corpus.chunks).toEqual([]);
    expect(corpus.skipped[0].reason).toMatch(/too many chunks: 3, more than corpus\.maxChunksPerFile \(2\)/);
  });
});

describe("corpus limits: maxFiles", () => {
  it("indexes the first files in sorted path order and reports the rest in one skip naming the limit and their count", async () => {
    const dir = await corpusOf({ "b.md": "B.\n", "a/z.md": "AZ.\n", "c.md": "C.\n", "a/a.md": "AA.\n", "d.md": "D.\n" });
    const corpus = await loadCorpus(dir, { maxFiles: 2 });
    expect(corpus.files.map((file) => file.file)).toEqual(["a/a.md", "a/z.md"]);
    expect(corpus.skipped).toEqual([
      {
        file: "b.md",
        reason: "not read, nor the 2 Markdown files after it in sorted path order: the corpus has more than corpus.maxFiles (2) Markdown files; raise corpus.maxFiles to index them",
      },
    ]);
    expect(corpus.fileCount).toBe(5);
  });

  it("reports nothing for a corpus of exactly maxFiles files", async () => {
    const dir = await corpusOf({ "a.md": "A.\n", "b.md": "B.\n" });
    const corpus = await loadCorpus(dir, { maxFiles: 2 });
    expect(corpus.files).toHaveLength(2);
    expect(corpus.skipped).toEqual([]);
  });
});
