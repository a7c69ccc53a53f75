import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import { parseTraceText, readTraceFile } from "../../src/trace/read-trace-file.js";

describe("parseTraceText", () => {
  it("parses every whole line and skips a partial last line", () => {
    const parsed = parseTraceText('{"n":1}\n{"n":2}\n{"n":3,"tit');

    expect(parsed).toEqual({ records: [{ n: 1 }, { n: 2 }], skippedLines: 1 });
  });

  it("skips the fragments a full disk left and the blank lines that restore line boundaries", () => {
    const parsed = parseTraceText('{"n":1}\n{"n":2,"ti\n\n{"n":3}\n{"n"\n{"n":4}\n');

    expect(parsed).toEqual({ records: [{ n: 1 }, { n: 3 }, { n: 4 }], skippedLines: 3 });
  });

  it("skips lines that are JSON but not records", () => {
    const parsed = parseTraceText('42\n[1,2]\nnull\n"text"\n{"n":1}\n');

    expect(parsed).toEqual({ records: [{ n: 1 }], skippedLines: 4 });
  });

  it("reads CRLF line endings and an empty text", () => {
    expect(parseTraceText('{"n":1}\r\n{"n":2}\r\n')).toEqual({ records: [{ n: 1 }, { n: 2 }], skippedLines: 0 });
    expect(parseTraceText("")).toEqual({ records: [], skippedLines: 0 });
  });
});

describe("readTraceFile", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "read-trace-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads a trace file, skipping a torn line", async () => {
    const path = join(dir, "trace.jsonl");
    await writeFile(path, '{"invocation_id":"a"}\n{"invocation_id":"b","ti\n{"invocation_id":"c"}\n');

    expect(await readTraceFile(path)).toEqual({
      records: [{ invocation_id: "a" }, { invocation_id: "c" }],
      skippedLines: 1,
    });
  });

  it("reads a trace that was never written as no records", async () => {
    expect(await readTraceFile(join(dir, "missing", "trace.jsonl"))).toEqual({ records: [], skippedLines: 0 });
  });

  it("refuses a path that is not a regular file with a LookupKnowledgeError", async () => {
    const error = await readTraceFile(dir).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(LookupKnowledgeError);
    expect(String(error)).toContain("is a directory, not a regular file");
  });
});
