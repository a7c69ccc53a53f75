import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  MAX_DOCUMENT_LINE_BYTES,
  parseDocumentLine,
  readJsonlDocuments,
  type JsonlDocument,
  type JsonlTally,
} from "../../src/cli/documents-jsonl.js";

const SECRET = "SECRET_MARKER_7f3a";

/** Reads `chunks` as a stream; returns the documents, the skips said and the tally. */
async function read(chunks: (string | Uint8Array)[], maxLineBytes?: number, sourceIdKey?: string) {
  const tally: JsonlTally = { lines: 0, skippedLines: 0, lineOfDocument: [], lineOfSource: new Map() };
  const skips: string[] = [];
  const documents: JsonlDocument[] = [];
  const options = {
    onSkip: (line: number, reason: string) => skips.push(`line ${line}: ${reason}`),
    ...(maxLineBytes === undefined ? {} : { maxLineBytes }),
    ...(sourceIdKey === undefined ? {} : { sourceIdKey }),
  };
  for await (const document of readJsonlDocuments(Readable.from(chunks, { objectMode: true }), tally, options))
    documents.push(document);
  return { documents, skips, tally };
}

const line = (pageContent: string, metadata?: object) =>
  JSON.stringify(metadata === undefined ? { pageContent } : { pageContent, metadata });

describe("readJsonlDocuments", () => {
  it("reads one document a line, with metadata defaulting to an empty object, and records each one's line", async () => {
    const { documents, skips, tally } = await read([
      `${line("Refunds need approval.", { source: "a.txt" })}\n${line("No metadata.")}\n`,
    ]);
    expect(documents).toEqual([
      { pageContent: "Refunds need approval.", metadata: { source: "a.txt" } },
      { pageContent: "No metadata.", metadata: {} },
    ]);
    expect(skips).toEqual([]);
    expect(tally).toEqual({ lines: 2, skippedLines: 0, lineOfDocument: [1, 2], lineOfSource: new Map([["a.txt", 1]]) });
  });

  it("ignores blank lines but counts them, so that later lines keep their numbers", async () => {
    const { documents, tally } = await read([`\n   \n${line("third")}\n\n`]);
    expect(documents).toHaveLength(1);
    expect(tally.lineOfDocument).toEqual([3]);
    expect(tally.lines).toBe(4);
  });

  it("joins a line split across chunks, even inside a multi-byte character", async () => {
    const bytes = Buffer.from(`${line("naïve café ✓")}\n${line("two")}`, "utf8");
    const cut = bytes.indexOf(Buffer.from("✓")) + 1;
    const { documents } = await read([bytes.subarray(0, cut), bytes.subarray(cut)]);
    expect(documents.map((document) => document.pageContent)).toEqual(["naïve café ✓", "two"]);
  });

  it("drops a carriage return before each newline and a byte order mark on the first line", async () => {
    const { documents, skips } = await read([`\uFEFF${line("first", { source: "a" })}\r\n${line("second")}\r\n`]);
    expect(skips).toEqual([]);
    expect(documents.map((document) => document.pageContent)).toEqual(["first", "second"]);
  });

  it("skips a byte order mark on a later line as not JSON", async () => {
    const { skips } = await read([`${line("first")}\n\uFEFF${line("second")}\n`]);
    expect(skips).toHaveLength(1);
    expect(skips[0]).toMatch(/^line 2: invalid JSON/);
  });

  it("reports lines that hold no document by number and why, never quoting them", async () => {
    const { documents, skips, tally } = await read([
      [
        `{"pageContent": ${SECRET}}`,
        `{"pageContent": "${SECRET}"`,
        `["${SECRET}"]`,
        `"${SECRET}"`,
        `{"text": "${SECRET}"}`,
        `{"pageContent": 12, "metadata": {"source": "${SECRET}"}}`,
        `{"pageContent": "${SECRET}", "metadata": ["${SECRET}"]}`,
        `{"pageContent": "${SECRET}", "metadata": null}`,
        line("kept", { source: "ok" }),
      ].join("\n"),
    ]);
    expect(documents).toEqual([{ pageContent: "kept", metadata: { source: "ok" } }]);
    expect(skips).toEqual([
      "line 1: invalid JSON: a line of 35 characters that is not one JSON value",
      "line 2: invalid JSON: the line of 36 characters ends inside a value",
      'line 3: not a JSON object but an array; a line is {"pageContent": …, "metadata": {…}}',
      'line 4: not a JSON object but a string; a line is {"pageContent": …, "metadata": {…}}',
      "line 5: no pageContent",
      "line 6: pageContent must be a string, got a number",
      "line 7: metadata must be an object, got an array",
      "line 8: metadata must be an object, got null",
    ]);
    expect(skips.join("\n")).not.toContain(SECRET);
    expect(tally.skippedLines).toBe(8);
    expect(tally.lineOfDocument).toEqual([9]);
    expect(tally.lineOfSource.has(SECRET)).toBe(false);
  });

  it("skips a line longer than the limit without holding it, and reads the next line", async () => {
    const long = `{"pageContent": "${SECRET}${"x".repeat(200)}"}`;
    const pieces = [long.slice(0, 50), long.slice(50), `\n${line("after")}\n`];
    const { documents, skips, tally } = await read(pieces, 64);
    expect(skips).toEqual([`line 1: too long: ${long.length} bytes, at most 64 (the line was not read)`]);
    expect(skips.join("")).not.toContain(SECRET);
    expect(documents.map((document) => document.pageContent)).toEqual(["after"]);
    expect(tally.lineOfDocument).toEqual([2]);
  });

  it("skips a line that is not UTF-8", async () => {
    const bad = Buffer.concat([Buffer.from('{"pageContent": "'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]);
    const { skips } = await read([bad, `${line("fine")}\n`]);
    expect(skips).toEqual(["line 1: not UTF-8 text"]);
  });

  it("records the line of each source held by one line alone, under the source id key given", async () => {
    const { tally } = await read(
      [
        [
          line("a", { url: "https://x/a" }),
          line("b1", { url: "https://x/b" }),
          line("b2", { url: "https://x/b" }),
          line("n", { url: 42 }),
          line("s", { source: "ignored" }),
        ].join("\n"),
      ],
      undefined,
      "url",
    );
    expect(tally.lineOfSource).toEqual(
      new Map<string, number | null>([
        ["https://x/a", 1],
        ["https://x/b", null],
        ["42", 4],
      ]),
    );
  });

  it("allows a line of 64 MiB by default", () => {
    expect(MAX_DOCUMENT_LINE_BYTES).toBe(64 * 1024 * 1024);
  });
});

describe("parseDocumentLine", () => {
  it("keeps fields a LangChain document may carry besides pageContent and metadata out of the document", () => {
    expect(parseDocumentLine('{"pageContent": "p", "id": "7", "metadata": {"source": "s"}}')).toEqual({
      pageContent: "p",
      metadata: { source: "s" },
    });
  });
});
