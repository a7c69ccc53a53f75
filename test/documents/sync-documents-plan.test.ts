import { Document } from "@langchain/core/documents";
import { describe, expect, it } from "vitest";
import { chunksOfDocument } from "../../src/documents/document-chunks.js";
import { resolveDocumentOptions, type DocumentOptions } from "../../src/documents/document-options.js";
import { readDocuments } from "../../src/documents/read-documents.js";
import { planDocumentSync, previousSources, type CleanupMode } from "../../src/documents/sync-documents-plan.js";
import type { LoadedCorpus } from "../../src/corpus/load-corpus.js";

const doc = (pageContent: string, metadata: Record<string, unknown>) => new Document({ pageContent, metadata });

async function plan(
  docs: Document[],
  before: LoadedCorpus | null = null,
  cleanup: CleanupMode = "incremental",
  options: DocumentOptions = {},
) {
  const settings = resolveDocumentOptions(options);
  const previous = before === null ? new Map() : previousSources(before.files, before.chunks);
  return planDocumentSync(await readDocuments(docs, settings), previous, cleanup, settings);
}

describe("chunksOfDocument", () => {
  const settings = resolveDocumentOptions();

  it("splits Markdown by headings with its frontmatter, metadata winning, and keys its sources by location", async () => {
    const chunks = await chunksOfDocument(
      {
        sourceId: "guide.md",
        key: "page-2",
        label: "page 2",
        content: "---\ntitle: Guide\ndomain: hr\n---\nIntro\n\n## Leave\nTake it.",
        metadata: { domain: "it" },
      },
      settings,
    );
    expect(
      chunks.map(({ source, breadcrumb, file, meta }) => ({ source, breadcrumb, file, domain: meta.domain })),
    ).toEqual([
      { source: "guide.md#page-2/top", breadcrumb: ["Guide", "page 2"], file: "guide.md", domain: "it" },
      { source: "guide.md#page-2/leave", breadcrumb: ["Guide", "Leave", "page 2"], file: "guide.md", domain: "it" },
    ]);
  });

  it("keeps a corpus file's source ids for a source's only Markdown document", async () => {
    const chunks = await chunksOfDocument(
      { sourceId: "a.md", key: null, label: null, content: "# A\nText", metadata: {} },
      settings,
    );
    expect(chunks.map(({ source }) => source)).toEqual(["a.md#a"]);
  });

  it("splits other text by paragraphs, or with the splitter given", async () => {
    const text = "one two\n\nthree four";
    const small = resolveDocumentOptions({ maxChunkChars: 10 });
    const chunks = await chunksOfDocument(
      { sourceId: "h.pdf", key: "page-1", label: "page 1", content: text, metadata: { title: "Handbook" } },
      small,
    );
    expect(chunks.map(({ source, content, breadcrumb }) => [source, content, breadcrumb])).toEqual([
      ["h.pdf#page-1", "one two", ["Handbook", "page 1"]],
      ["h.pdf#page-1/2", "three four", ["Handbook", "page 1"]],
    ]);
    const bySentence = resolveDocumentOptions({ splitter: { splitText: async (t: string) => t.split(" ") } });
    const split = await chunksOfDocument(
      { sourceId: "n.txt", key: null, label: null, content: "a b", metadata: {} },
      bySentence,
    );
    expect(split.map(({ source, content }) => [source, content])).toEqual([
      ["n.txt#text", "a"],
      ["n.txt#text/2", "b"],
    ]);
  });

  it("turns a splitter that throws or returns garbage, and empty text, into a skip reason", async () => {
    for (const splitText of [async () => Promise.reject(new Error("x")), async () => [1, 2]]) {
      const broken = resolveDocumentOptions({ splitter: { splitText } as never });
      await expect(
        chunksOfDocument({ sourceId: "a", key: null, label: null, content: "text", metadata: {} }, broken),
      ).rejects.toMatchObject({ code: "CORPUS_FILE_INVALID" });
    }
    await expect(
      chunksOfDocument(
        { sourceId: "a.md", key: null, label: null, content: "---\ntitle: t\n---\n", metadata: {} },
        settings,
      ),
    ).rejects.toThrow(/no text/);
    await expect(
      chunksOfDocument({ sourceId: "a", key: null, label: null, content: " \n ", metadata: {} }, settings),
    ).rejects.toThrow(/no text/);
  });

  it("never runs code frontmatter in Markdown page content", async () => {
    const content = "---js\n{ title: (globalThis.ranDocumentCode = true, 'x') }\n---\nBody";
    await expect(
      chunksOfDocument({ sourceId: "a.md", key: null, label: null, content, metadata: {} }, settings),
    ).rejects.toMatchObject({ code: "CORPUS_FILE_INVALID" });
    expect((globalThis as Record<string, unknown>).ranDocumentCode).toBeUndefined();
  });

  it("holds every chunk to maxChunkBytes, numbering the parts after the chunk's id, and notes the split naming the limit", async () => {
    const limited = resolveDocumentOptions({ maxChunkBytes: 100, maxChunkChars: 1_000 });
    const notes: string[] = [];
    const text = await chunksOfDocument(
      { sourceId: "a.txt", key: "page-1", label: null, content: "w".repeat(250), metadata: {} },
      limited,
      (note) => notes.push(note),
    );
    expect(text.map((chunk) => [chunk.source, chunk.content.length])).toEqual([
      ["a.txt#page-1", 100],
      ["a.txt#page-1/2", 100],
      ["a.txt#page-1/3", 50],
    ]);
    const markdown = await chunksOfDocument(
      { sourceId: "a.md", key: "page-1", label: null, content: `# Long\n\n${"m".repeat(150)}`, metadata: {} },
      limited,
      (note) => notes.push(note),
    );
    expect(markdown.map((chunk) => chunk.source)).toEqual(["a.md#page-1/long", "a.md#page-1/long/2"]);
    expect(notes).toEqual([
      "split 1 section over maxChunkBytes (100 bytes) into 3 chunks; raise maxChunkBytes to keep sections whole",
      "split 1 section over maxChunkBytes (100 bytes) into 2 chunks; raise maxChunkBytes to keep sections whole",
    ]);
    expect(() => resolveDocumentOptions({ maxChunkBytes: 2 })).toThrow(/maxChunkBytes must be a whole number from 4/);
  });
});

describe("planDocumentSync", () => {
  const v1 = [
    doc("Page one text", { source: "h.pdf", loc: { pageNumber: 1 } }),
    doc("Page two text", { source: "h.pdf", loc: { pageNumber: 2 } }),
    doc("Notes", { source: "n.txt" }),
  ];

  it("counts every document as added on a first sync, sources in id order", async () => {
    const { corpus, result } = await plan(v1);
    expect(result).toEqual({ numAdded: 3, numUpdated: 0, numSkipped: 0, numDeleted: 0 });
    expect(
      corpus.files.map(({ file, chunkCount, documents }) => [file, chunkCount, documents!.map(({ key }) => key)]),
    ).toEqual([
      ["h.pdf", 2, ["page-1", "page-2"]],
      ["n.txt", 1, [""]],
    ]);
    expect(corpus.chunks.map(({ source }) => source)).toEqual(["h.pdf#page-1", "h.pdf#page-2", "n.txt#text"]);
  });

  it("reuses the chunk objects of unchanged documents, replaces changed ones and deletes the ones left out of a given source", async () => {
    const { corpus: before } = await plan(v1);
    const { corpus, result } = await plan(
      [
        doc("Page one text", { source: "h.pdf", loc: { pageNumber: 1 } }),
        doc("Page three", { source: "h.pdf", loc: { pageNumber: 3 } }),
      ],
      before,
    );
    expect(result).toEqual({ numAdded: 1, numUpdated: 0, numSkipped: 1, numDeleted: 1 });
    expect(corpus.chunks[0]).toBe(before.chunks[0]);
    // n.txt was not given: incremental keeps it, the very same chunk.
    expect(corpus.chunks.map(({ source }) => source)).toEqual(["h.pdf#page-1", "h.pdf#page-3", "n.txt#text"]);
    expect(corpus.chunks[2]).toBe(before.chunks[2]);
    expect([...corpus.reused]).toEqual(["n.txt"]);
  });

  it("counts a document whose content or metadata changed at the same location as updated", async () => {
    const { corpus: before } = await plan(v1);
    const { result, corpus } = await plan(
      [
        doc("Page one text", { source: "h.pdf", loc: { pageNumber: 1 } }),
        doc("Page two, edited", { source: "h.pdf", loc: { pageNumber: 2 } }),
        doc("Notes", { source: "n.txt", domain: "ops" }),
      ],
      before,
    );
    expect(result).toEqual({ numAdded: 0, numUpdated: 2, numSkipped: 1, numDeleted: 0 });
    expect(corpus.chunks[2].meta.domain).toBe("ops");
    expect(corpus.reused.size).toBe(0);
  });

  it("marks a source given again unchanged as reused, and full cleanup deletes the sources not given", async () => {
    const { corpus: before } = await plan(v1);
    const { corpus, result } = await plan([doc("Notes", { source: "n.txt" })], before, "full");
    expect(result).toEqual({ numAdded: 0, numUpdated: 0, numSkipped: 1, numDeleted: 2 });
    expect(corpus.files.map(({ file }) => file)).toEqual(["n.txt"]);
    expect([...corpus.reused]).toEqual(["n.txt"]);
    expect(corpus.fileCount).toBe(1);
  });

  it("skips an invalid document of a source, keeping its others and deleting its earlier version", async () => {
    const { corpus: before } = await plan(v1);
    const { corpus, result } = await plan(
      [
        doc("Page one text", { source: "h.pdf", loc: { pageNumber: 1 } }),
        doc("Page two text", { source: "h.pdf", loc: { pageNumber: 2 }, keywords: { not: "a list" } }),
      ],
      before,
    );
    expect(result).toEqual({ numAdded: 0, numUpdated: 0, numSkipped: 1, numDeleted: 1 });
    expect(corpus.skipped).toEqual([
      { file: "h.pdf#page-2", reason: 'metadata field "keywords" must be a list of strings, got object' },
    ]);
    expect(corpus.chunks.map(({ source }) => source)).toEqual(["h.pdf#page-1", "n.txt#text"]);
  });

  it("skips a document whose chunk ids a kept source already has (a forged index), instead of failing the build", async () => {
    const { corpus: before } = await plan([doc("kept", { source: "k" })]);
    const forged = { ...before, chunks: [{ ...before.chunks[0], source: "a#text" }] };
    const { corpus } = await plan([doc("new", { source: "a" })], forged);
    expect(corpus.chunks.map(({ source }) => source)).toEqual(["a#text"]);
    expect(corpus.chunks[0].content).toBe("kept");
    expect(corpus.skipped).toEqual([{ file: "a", reason: expect.stringMatching(/is another document's too/) }]);
  });
});
