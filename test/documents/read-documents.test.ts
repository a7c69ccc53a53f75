import { Document } from "@langchain/core/documents";
import { describe, expect, it } from "vitest";
import { resolveDocumentOptions } from "../../src/documents/document-options.js";
import { locationOf, readDocuments } from "../../src/documents/read-documents.js";

const settings = resolveDocumentOptions();

describe("readDocuments", () => {
  it("groups documents by source id in the order given and keys them by their location", async () => {
    const read = await readDocuments(
      [
        new Document({ pageContent: "p1", metadata: { source: "h.pdf", loc: { pageNumber: 1 } } }),
        new Document({ pageContent: "only", metadata: { source: "a.txt" } }),
        new Document({ pageContent: "p2", metadata: { source: "h.pdf", loc: { pageNumber: 2 } } }),
        new Document({ pageContent: "again", metadata: { source: "h.pdf", loc: { pageNumber: 2 } } }),
        new Document({ pageContent: "l", metadata: { source: "d.jsonl", line: 7 } }),
      ],
      settings,
    );
    expect(read.count).toBe(5);
    expect(read.skipped).toEqual([]);
    expect([...read.sources.keys()]).toEqual(["h.pdf", "a.txt", "d.jsonl"]);
    expect(read.sources.get("h.pdf")!.map(({ key, label }) => [key, label])).toEqual([
      ["page-1", "page 1"],
      ["page-2", "page 2"],
      ["page-2.2", "page 2"],
    ]);
    expect(read.sources.get("a.txt")![0].key).toBeNull();
    expect(read.sources.get("d.jsonl")![0].key).toBe("line-7");
  });

  it("numbers the documents of a source that gave no location", async () => {
    const read = await readDocuments(
      [
        { pageContent: "a", metadata: { source: "s" } },
        { pageContent: "b", metadata: { source: "s" } },
      ],
      settings,
    );
    expect(read.sources.get("s")!.map(({ key }) => key)).toEqual(["part-1", "part-2"]);
  });

  it("hashes content and metadata whatever the key order, and tells changed ones apart", async () => {
    const read = await readDocuments(
      [
        { pageContent: "x", metadata: { source: "a", b: 1, c: { d: 2, e: 3 } } },
        { pageContent: "x", metadata: { c: { e: 3, d: 2 }, b: 1, source: "b" } },
        { pageContent: "x", metadata: { source: "c", b: 2, c: { d: 2, e: 3 } } },
      ],
      resolveDocumentOptions({ sourceIdKey: () => "same" }),
    );
    const [first, second, third] = read.sources.get("same")!;
    expect(first.sha256).not.toBe(second.sha256); // the source values differ
    const again = await readDocuments(
      [{ pageContent: "x", metadata: { c: { e: 3, d: 2 }, b: 1, source: "a" } }],
      settings,
    );
    expect(again.sources.get("a")![0].sha256).toBe(first.sha256);
    expect(third.sha256).not.toBe(first.sha256);
  });

  it("skips what is not a usable document, naming it by position or source and never quoting its content", async () => {
    const cyclic: Record<string, unknown> = { source: "cyc" };
    cyclic.self = cyclic;
    const hostile = {
      get pageContent(): string {
        throw new Error("boom");
      },
      metadata: { source: "h" },
    };
    const read = await readDocuments(
      [
        null,
        "SECRET text",
        { pageContent: 42, metadata: { source: "n" } },
        { pageContent: "SECRET", metadata: [] },
        { pageContent: "SECRET", metadata: {} },
        { pageContent: "SECRET", metadata: { source: "bad\u001b[2Jid" } },
        { pageContent: "SECRET", metadata: { source: "x".repeat(2000) } },
        { pageContent: "SECRET", metadata: cyclic },
        { pageContent: "S".repeat(20), metadata: { source: "big" } },
        hostile,
        { pageContent: "fine", metadata: { source: 12 } },
      ] as never,
      resolveDocumentOptions({ maxDocumentChars: 10 }),
    );
    expect([...read.sources.keys()]).toEqual(["12"]);
    expect(read.skipped.map(({ file }) => file)).toEqual([
      "document 1",
      "document 2",
      "document 3",
      "document 4",
      "document 5",
      "document 6",
      "document 7",
      "cyc",
      "big",
      "document 10",
    ]);
    expect(read.skipped[4].reason).toBe("no source id: metadata.source must be a non-empty string");
    expect(read.skipped[5].reason).toMatch(/control characters/);
    expect(read.skipped[7].reason).toMatch(/cycle/);
    expect(read.skipped[8].reason).toMatch(/^too large: 20 characters of page content, at most 10/);
    for (const { reason } of read.skipped) expect(reason).not.toMatch(/SECRET|\u001b/);
  });

  it("fails as a whole, indexing nothing, when the loader throws", async () => {
    await expect(readDocuments({ load: () => Promise.reject(new Error("disk gone")) }, settings)).rejects.toMatchObject(
      { code: "DOCUMENTS_UNREADABLE" },
    );
    async function* failing() {
      yield new Document({ pageContent: "a", metadata: { source: "a" } });
      throw new Error("stream cut");
    }
    await expect(readDocuments(failing(), settings)).rejects.toMatchObject({ code: "DOCUMENTS_UNREADABLE" });
    await expect(readDocuments("docs" as never, settings)).rejects.toMatchObject({ code: "INVALID_OPTION" });
  });

  it("reads a loader, an iterable and an async iterable alike", async () => {
    const docs = [new Document({ pageContent: "a", metadata: { source: "a" } })];
    async function* stream() {
      yield* docs;
    }
    for (const source of [docs, new Set(docs), stream(), { load: async () => docs }]) {
      expect([...(await readDocuments(source, settings)).sources.keys()]).toEqual(["a"]);
    }
  });
});

describe("locationOf", () => {
  it("reads a PDF page, a line range and a JSON line, in that order of preference", () => {
    expect(locationOf({ loc: { pageNumber: 3, lines: { from: 1, to: 2 } } })).toEqual({
      key: "page-3",
      label: "page 3",
    });
    expect(locationOf({ loc: { lines: { from: 4, to: 9 } } })).toEqual({ key: "lines-4-9", label: "lines 4-9" });
    expect(locationOf({ line: 12 })).toEqual({ key: "line-12", label: "line 12" });
    expect(locationOf({ loc: { pageNumber: -1 }, line: 1.5 })).toBeNull();
    expect(locationOf({ loc: "page 3" })).toBeNull();
  });
});
