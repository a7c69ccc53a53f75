import { describe, expect, it } from "vitest";
import { checkFiles, serializeFiles } from "../../src/knowledge-base/files-file.js";
import type { Chunk } from "../../src/types.js";

const hash = "a".repeat(64);
const chunk = (file: string, source: string): Chunk => ({
  source,
  file,
  breadcrumb: [],
  content: "x",
  meta: { keywords: [], entities: [], aliases: [] },
});
const chunks = [chunk("h.pdf", "h.pdf#page-1"), chunk("h.pdf", "h.pdf#page-2")];

describe("files.json", () => {
  it("writes version 1 for corpus files and version 2 for sources of documents, and reads both back", () => {
    const corpus = [{ file: "h.pdf", sha256: hash, chunkCount: 2 }];
    expect(JSON.parse(serializeFiles(corpus)).version).toBe(1);
    expect(checkFiles(JSON.parse(serializeFiles(corpus)), chunks)).toEqual(corpus);
    const documents = [
      {
        file: "h.pdf",
        sha256: hash,
        chunkCount: 2,
        documents: [
          { key: "page-1", sha256: hash, chunkCount: 1 },
          { key: "page-2", sha256: hash, chunkCount: 1 },
        ],
      },
    ];
    expect(JSON.parse(serializeFiles(documents)).version).toBe(2);
    expect(checkFiles(JSON.parse(serializeFiles(documents)), chunks)).toEqual(documents);
  });

  it("refuses document records that do not add up, repeat a key, or appear in the wrong version", () => {
    const record = (documents: unknown) => ({
      version: 2,
      files: [{ file: "h.pdf", sha256: hash, chunkCount: 2, documents }],
    });
    expect(checkFiles(record([{ key: "p", sha256: hash, chunkCount: 1 }]), chunks)).toBe("has a malformed record 1");
    expect(
      checkFiles(
        record([
          { key: "p", sha256: hash, chunkCount: 1 },
          { key: "p", sha256: hash, chunkCount: 1 },
        ]),
        chunks,
      ),
    ).toBe("has a malformed record 1");
    expect(checkFiles(record([]), chunks)).toBe("has a malformed record 1");
    expect(checkFiles({ version: 2, files: [{ file: "h.pdf", sha256: hash, chunkCount: 2 }] }, chunks)).toBe(
      "has a malformed record 1",
    );
    expect(checkFiles({ version: 1, files: record([{ key: "", sha256: hash, chunkCount: 2 }]).files }, chunks)).toBe(
      "has a malformed record 1",
    );
    expect(checkFiles({ version: 3, files: [] }, [])).toBe("is not a version 1 or 2 file list");
  });
});
