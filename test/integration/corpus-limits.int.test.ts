import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KnowledgeBase } from "../../src/index.js";
import { createTempDirs } from "./helpers/integration-fixtures.js";

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

/** One line of `size` bytes of words, without a single line break. */
function oneLine(size: number, marker: string): string {
  const words = "ledger reconciliation needs approval from finance before close ";
  const half = words.repeat(Math.floor(size / 2 / words.length));
  return `${half}${marker} ${half}`.slice(0, size);
}

describe("KnowledgeBase.build over a corpus with a huge one-line file", () => {
  const temp = createTempDirs();
  afterAll(() => temp.cleanup());

  it("splits the line into chunks within corpus.maxChunkBytes, warns naming the limit, and saves and loads the split ids", async () => {
    const dir = await temp.make();
    await writeFile(join(dir, "line.md"), `---\ntitle: Ledger\n---\n# Close\n\n${oneLine(200_000, "zanzibarword")}\n`);
    await writeFile(join(dir, "other.md"), "---\ntitle: Other\n---\nA short page about refunds.\n");
    const warnings: string[] = [];
    const kb = await KnowledgeBase.build({
      corpusDir: dir,
      corpus: { maxChunkBytes: 4_096 },
      onWarning: (line) => warnings.push(line),
    });

    const parts = kb.chunks.filter((chunk) => chunk.file === "line.md");
    expect(parts.length).toBeGreaterThanOrEqual(49);
    for (const chunk of parts) expect(bytes(chunk.content)).toBeLessThanOrEqual(4_096);
    expect(parts.map((chunk) => chunk.source).slice(0, 3)).toEqual([
      "line.md#close",
      "line.md#close/2",
      "line.md#close/3",
    ]);
    expect(parts.every((chunk) => chunk.breadcrumb.join(" > ") === "Ledger > Close")).toBe(true);
    expect(warnings).toEqual([
      `lookup-knowledge: line.md: split 1 section over corpus.maxChunkBytes (4096 bytes) into ${parts.length} chunks; raise corpus.maxChunkBytes to keep sections whole`,
    ]);
    expect(kb.skipped).toEqual([]);

    const [hit] = kb.l0.search("zanzibarword", { domain: null, limit: 1 }).candidates;
    expect(hit.chunk.source).toMatch(/^line\.md#close\/\d+$/);

    const saved = join(await temp.make(), "index");
    await kb.save(saved);
    const loaded = await KnowledgeBase.load(saved);
    expect(loaded.chunks.map((chunk) => chunk.source)).toEqual(kb.chunks.map((chunk) => chunk.source));
  });

  it("builds a 20 MB one-line file at the default limit into 64 KiB chunks", async () => {
    const dir = await temp.make();
    await writeFile(join(dir, "huge.md"), oneLine(20 * 1024 * 1024, "zanzibarword"));
    const warnings: string[] = [];
    const kb = await KnowledgeBase.build({ corpusDir: dir, onWarning: (line) => warnings.push(line) });

    expect(kb.chunks.length).toBeGreaterThanOrEqual(320);
    for (const chunk of kb.chunks) expect(bytes(chunk.content)).toBeLessThanOrEqual(65_536);
    expect(new Set(kb.chunks.map((chunk) => chunk.source)).size).toBe(kb.chunks.length);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^lookup-knowledge: huge\.md: split 1 section over corpus\.maxChunkBytes \(65536 bytes\) into \d+ chunks/,
    );
  }, 60_000);
});
