import { spawnSync } from "node:child_process";
import { appendFile, mkdtemp, readFile, rename, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import { JsonlTraceSink } from "../../src/trace/jsonl-trace-sink.js";
import type { OpenedTraceFile, TraceFile } from "../../src/trace/trace-file.js";
import { LIMIT_BYTES } from "./trace-inputs.js";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const UNCLOSED_CHILD = "test/trace/helpers/unclosed-sink-child.ts";

/** What the fake file does on one open: refuse the path, throw, or open a file. */
type OpenAnswer = "refuse" | Error | "open";
/** What the fake file does on one write: write this many bytes (`"all"` for all), or throw. */
type WriteAnswer = number | "all" | Error;

/** An in-memory trace file whose opens and writes answer from scripts, recording every write call. */
class ScriptedTraceFiles {
  content = "";
  readonly writes: string[] = [];
  opens = 0;
  closes = 0;
  /** Calls of `isStillAtPath`, the sink's rotation check. */
  pathChecks = 0;
  /** What `isStillAtPath` answers: false once the test "rotates" the file. */
  stillAtPath = true;
  /** What `inspect` says of the link count: false once the test "deletes" the file. */
  linked = true;

  constructor(
    private readonly writeAnswers: WriteAnswer[] = [],
    private readonly openAnswers: OpenAnswer[] = [],
  ) {}

  readonly open = async (): Promise<OpenedTraceFile> => {
    this.opens++;
    const answer = this.openAnswers.shift() ?? "open";
    if (answer === "refuse") return { refused: "a FIFO" };
    if (answer instanceof Error) throw answer;
    const file: TraceFile = {
      inspect: async () => ({
        linked: this.linked,
        endsWithNewline: this.content.length === 0 || this.content.endsWith("\n"),
      }),
      write: async (data) => {
        const text = Buffer.from(data).toString("utf8");
        this.writes.push(text);
        const next = this.writeAnswers.shift() ?? "all";
        if (next instanceof Error) throw next;
        const bytes = next === "all" ? data.length : next;
        this.content += Buffer.from(data).subarray(0, bytes).toString("utf8");
        return bytes;
      },
      isStillAtPath: async () => {
        this.pathChecks++;
        return this.stillAtPath;
      },
      close: async () => {
        this.closes++;
      },
    };
    return { file };
  };
}

function enospc(): Error {
  return Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
}

describe("JsonlTraceSink", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "jsonl-sink-"));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  it("writes 200 concurrent appends as exactly 200 whole JSON lines", async () => {
    const path = join(dir, "nested", "trace.jsonl");
    const sink = new JsonlTraceSink(path);
    // Large records make torn or interleaved writes likely if appends were not serialised.
    const padding = "x".repeat(8_000);

    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, i) => sink.append({ invocation_id: `inv-${i}`, padding })),
    );

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

  it("writes a 3 MB record as one line of at most 64 KiB", async () => {
    const path = join(dir, "trace.jsonl");
    const sink = new JsonlTraceSink(path);

    expect(await sink.append({ type: "tool_invocation", invocation_id: "big", title: "t".repeat(3_000_000) })).toBe(
      true,
    );

    const text = await readFile(path, "utf8");
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(LIMIT_BYTES);
    expect(JSON.parse(text)).toMatchObject({ invocation_id: "big", truncated: ["title"] });
  });

  it("writes each line with exactly one write call", async () => {
    const files = new ScriptedTraceFiles();
    const sink = new JsonlTraceSink(join(dir, "trace.jsonl"), { openFile: files.open });

    const outcomes = await Promise.all([
      sink.append({ n: 1 }),
      sink.append({ n: 2 }),
      sink.append({ n: 3, text: "é".repeat(20_000) }),
    ]);

    expect(outcomes).toEqual([true, true, true]);
    expect(files.writes).toHaveLength(3);
    expect(files.writes.map((line) => (JSON.parse(line) as { n: number }).n)).toEqual([1, 2, 3]);
    expect(files.writes.every((line) => line.endsWith("\n") && line.indexOf("\n") === line.length - 1)).toBe(true);
  });

  it("resolves false for a short write and starts its next line on a fresh line", async () => {
    const files = new ScriptedTraceFiles([10, "all"]);
    const errors: unknown[] = [];
    const sink = new JsonlTraceSink(join(dir, "trace.jsonl"), {
      openFile: files.open,
      onFirstError: (error) => errors.push(error),
    });

    const outcomes = [await sink.append({ n: 1, text: "first record" }), await sink.append({ n: 2 })];

    expect(outcomes).toEqual([false, true]);
    expect(files.content).toBe(`${'{"n":1,"text":"first record"}'.slice(0, 10)}\n{"n":2}\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(LookupKnowledgeError);
    expect(String(errors[0])).toContain("wrote 10 of 30 bytes");
  });

  it("keeps restoring the line boundary while writes keep failing", async () => {
    const files = new ScriptedTraceFiles([5, enospc(), 0, "all"]);
    const sink = new JsonlTraceSink(join(dir, "trace.jsonl"), { openFile: files.open, onFirstError: () => {} });

    const outcomes = [];
    for (let n = 1; n <= 4; n++) outcomes.push(await sink.append({ n }));

    expect(outcomes).toEqual([false, false, false, true]);
    expect(files.writes.slice(1)).toEqual(['\n{"n":2}\n', '\n{"n":3}\n', '\n{"n":4}\n']);
    expect(files.content).toBe('{"n":\n{"n":4}\n');
  });

  it("resolves false when a write throws, tells onFirstError once, and writes again once space is back", async () => {
    const files = new ScriptedTraceFiles([enospc(), enospc(), "all"]);
    const errors: unknown[] = [];
    const sink = new JsonlTraceSink(join(dir, "trace.jsonl"), {
      openFile: files.open,
      onFirstError: (error) => errors.push(error),
    });

    const outcomes = [await sink.append({ n: 1 }), await sink.append({ n: 2 }), await sink.append({ n: 3 })];

    expect(outcomes).toEqual([false, false, true]);
    expect(files.content).toBe('{"n":3}\n');
    expect(errors).toEqual([expect.objectContaining({ code: "ENOSPC" })]);
  });

  it("warns once for a refused path and once for failed writes", async () => {
    const files = new ScriptedTraceFiles([], ["refuse", enospc(), "refuse", enospc()]);
    const errors: unknown[] = [];
    const sink = new JsonlTraceSink(join(dir, "trace.jsonl"), {
      openFile: files.open,
      onFirstError: (error) => errors.push(error),
    });

    const outcomes = [];
    for (let n = 1; n <= 4; n++) outcomes.push(await sink.append({ n }));

    expect(outcomes).toEqual([false, false, false, false]);
    expect(files.writes).toEqual([]);
    expect(errors).toHaveLength(2);
    expect(String(errors[0])).toContain("is a FIFO, not a regular file");
    expect(errors[1]).toMatchObject({ code: "ENOSPC" });
  });

  it("starts a fresh line when the file ends in a fragment another writer left", async () => {
    const path = join(dir, "trace.jsonl");
    await writeFile(path, '{"whole":1}\n{"torn":');
    const sink = new JsonlTraceSink(path);

    expect(await sink.append({ fresh: true })).toBe(true);

    expect(await readFile(path, "utf8")).toBe('{"whole":1}\n{"torn":\n{"fresh":true}\n');
  });

  it("starts a fresh line when another writer leaves a fragment while the sink holds the file open", async () => {
    const path = join(dir, "trace.jsonl");
    const sink = new JsonlTraceSink(path, { reopenCheckMs: 60_000 });

    await sink.append({ n: 1 });
    await appendFile(path, '{"torn":');
    await sink.append({ n: 2 });
    await appendFile(path, '{"whole":3}\n');
    await sink.append({ n: 4 });
    await sink.close();

    expect(await readFile(path, "utf8")).toBe('{"n":1}\n{"torn":\n{"n":2}\n{"whole":3}\n{"n":4}\n');
  });

  it("starts a fresh line when the open file was truncated and refilled with a fragment", async () => {
    const path = join(dir, "trace.jsonl");
    const sink = new JsonlTraceSink(path, { reopenCheckMs: 60_000 });

    await sink.append({ n: 1 });
    await truncate(path, 0);
    await appendFile(path, '{"to');
    await sink.append({ n: 2 });
    await sink.close();

    expect(await readFile(path, "utf8")).toBe('{"to\n{"n":2}\n');
  });

  it("refuses /dev/null and a directory as trace paths, with one warning each", async () => {
    const refusals: string[] = [];
    const devNull = new JsonlTraceSink("/dev/null", { onFirstError: (error) => refusals.push(String(error)) });
    const folder = new JsonlTraceSink(dir, { onFirstError: (error) => refusals.push(String(error)) });

    const outcomes = [
      await devNull.append({ n: 1 }),
      await devNull.append({ n: 2 }),
      await folder.append({ n: 1 }),
      await folder.append({ n: 2 }),
    ];

    expect(outcomes).toEqual([false, false, false, false]);
    expect(refusals).toHaveLength(2);
    expect(refusals[0]).toContain('"/dev/null" is a character device, not a regular file');
    expect(refusals[1]).toContain("is a directory, not a regular file");
  });

  it("warns through process.emitWarning with code LOOKUP_KNOWLEDGE_TRACE and never writes to stderr", async () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    const stderr = vi.spyOn(process.stderr, "write");
    const blocker = join(dir, "a-regular-file");
    await writeFile(blocker, "not a directory");
    const sink = new JsonlTraceSink(join(blocker, "trace.jsonl"));

    expect([await sink.append({ n: 1 }), await sink.append({ n: 2 })]).toEqual([false, false]);

    expect(stderr).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatch(
      /^lookup-knowledge: cannot write the trace to ".*trace\.jsonl" \(.*\); lookups go on without a trace\.$/,
    );
    expect(warn.mock.calls[0][1]).toEqual({ code: "LOOKUP_KNOWLEDGE_TRACE" });
  });

  it("resolves false instead of throwing for a record that cannot be serialised", async () => {
    const path = join(dir, "trace.jsonl");
    const errors: unknown[] = [];
    const sink = new JsonlTraceSink(path, { onFirstError: (error) => errors.push(error) });
    const cyclic: Record<string, unknown> = { n: 1 };
    cyclic.self = cyclic;

    const outcome = await Promise.resolve().then(() => sink.append(cyclic));

    expect(outcome).toBe(false);
    expect(errors).toHaveLength(1);
    expect(await sink.append({ n: 2 })).toBe(true);
    expect(await readFile(path, "utf8")).toBe('{"n":2}\n');
  });

  it("never rejects, even when onFirstError throws", async () => {
    const files = new ScriptedTraceFiles([], ["refuse", enospc()]);
    const sink = new JsonlTraceSink(join(dir, "trace.jsonl"), {
      openFile: files.open,
      onFirstError: () => {
        throw new Error("the warning handler broke");
      },
    });

    const outcomes = await Promise.allSettled([sink.append({ n: 1 }), sink.append({ n: 2 }), sink.append({ n: 3 })]);

    expect(outcomes).toEqual([
      { status: "fulfilled", value: false },
      { status: "fulfilled", value: false },
      { status: "fulfilled", value: true },
    ]);
  });

  it("keeps one descriptor open across appends and closes it once on close", async () => {
    const files = new ScriptedTraceFiles();
    const sink = new JsonlTraceSink(join(dir, "trace.jsonl"), { openFile: files.open });

    const outcomes = [];
    for (let n = 1; n <= 5; n++) outcomes.push(await sink.append({ n }));
    await sink.close();

    expect(outcomes).toEqual([true, true, true, true, true]);
    expect(files.opens).toBe(1);
    expect(files.closes).toBe(1);
    expect(files.content.split("\n")).toHaveLength(6);
  });

  it("finishes the appends queued before close, in order, and opens the file again for an append after it", async () => {
    const files = new ScriptedTraceFiles();
    const sink = new JsonlTraceSink(join(dir, "trace.jsonl"), { openFile: files.open });

    const [first, second] = await Promise.all([sink.append({ n: 1 }), sink.append({ n: 2 }), sink.close()]);
    const closesAfterClose = files.closes;
    const later = await sink.append({ n: 3 });

    expect([first, second, later]).toEqual([true, true, true]);
    expect(closesAfterClose).toBe(1);
    expect(files.opens).toBe(2);
    expect(files.content).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
  });

  it("follows a rotated trace to a new file when it checks the path before every append", async () => {
    const path = join(dir, "trace.jsonl");
    const sink = new JsonlTraceSink(path, { reopenCheckMs: 0 });

    await sink.append({ n: 1 });
    await rename(path, `${path}.1`);
    await sink.append({ n: 2 });
    await sink.append({ n: 3 });
    await sink.close();

    expect(await readFile(`${path}.1`, "utf8")).toBe('{"n":1}\n');
    expect(await readFile(path, "utf8")).toBe('{"n":2}\n{"n":3}\n');
  });

  it("creates the trace again on the next append when the file was deleted, however long between path checks", async () => {
    const path = join(dir, "logs", "trace.jsonl");
    const sink = new JsonlTraceSink(path, { reopenCheckMs: 60_000 });

    await sink.append({ n: 1 });
    await rm(join(dir, "logs"), { recursive: true });
    const outcome = await sink.append({ n: 2 });
    await sink.close();

    expect(outcome).toBe(true);
    expect(await readFile(path, "utf8")).toBe('{"n":2}\n');
  });

  it("checks the path at most once per reopenCheckMs and keeps writing to the open file in between", async () => {
    const path = join(dir, "trace.jsonl");
    const sink = new JsonlTraceSink(path, { reopenCheckMs: 60_000 });

    await sink.append({ n: 1 });
    await rename(path, `${path}.1`);
    await sink.append({ n: 2 });
    await sink.close();

    expect(await readFile(`${path}.1`, "utf8")).toBe('{"n":1}\n{"n":2}\n');
  });

  it("checks the path again once reopenCheckMs have passed, and reopens only when it names another file", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    try {
      const files = new ScriptedTraceFiles();
      const sink = new JsonlTraceSink(join(dir, "trace.jsonl"), { openFile: files.open, reopenCheckMs: 1_000 });

      await sink.append({ n: 1 });
      await sink.append({ n: 2 });
      const checksWithin = files.pathChecks;
      vi.advanceTimersByTime(1_000);
      await sink.append({ n: 3 });
      const opensWhileAtPath = files.opens;
      files.stillAtPath = false;
      vi.advanceTimersByTime(1_000);
      await sink.append({ n: 4 });

      expect(checksWithin).toBe(0);
      expect(files.pathChecks).toBe(2);
      expect(opensWhileAtPath).toBe(1);
      expect(files.opens).toBe(2);
      expect(files.closes).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("reports a deleted trace whose folder became a file as not written, with one warning", async () => {
    const folder = join(dir, "traces");
    const errors: unknown[] = [];
    const sink = new JsonlTraceSink(join(folder, "trace.jsonl"), {
      reopenCheckMs: 60_000,
      onFirstError: (error) => errors.push(error),
    });

    const before = await sink.append({ n: 1 });
    await rm(folder, { recursive: true });
    await writeFile(folder, "not a folder");
    const after = [await sink.append({ n: 2 }), await sink.append({ n: 3 })];

    expect([before, ...after]).toEqual([true, false, false]);
    expect(errors).toHaveLength(1);
  });

  it("opens the file again, without a path check, when the descriptor says the file was deleted", async () => {
    const files = new ScriptedTraceFiles();
    const sink = new JsonlTraceSink(join(dir, "trace.jsonl"), { openFile: files.open, reopenCheckMs: 60_000 });

    await sink.append({ n: 1 });
    files.linked = false;
    const outcome = await sink.append({ n: 2 });
    files.linked = true;

    expect(outcome).toBe(true);
    expect(files.pathChecks).toBe(0);
    expect(files.opens).toBe(2);
    expect(files.closes).toBe(1);
  });

  it("opens the file again after a write throws", async () => {
    const files = new ScriptedTraceFiles([enospc(), "all"]);
    const sink = new JsonlTraceSink(join(dir, "trace.jsonl"), { openFile: files.open, onFirstError: () => {} });

    const outcomes = [await sink.append({ n: 1 }), await sink.append({ n: 2 })];

    expect(outcomes).toEqual([false, true]);
    expect(files.closes).toBe(1);
    expect(files.opens).toBe(2);
  });

  it.each([[-1], [Number.NaN], [Number.POSITIVE_INFINITY], ["1000"]])(
    "refuses reopenCheckMs %s with INVALID_OPTION",
    (value) => {
      expect(() => new JsonlTraceSink(join(dir, "trace.jsonl"), { reopenCheckMs: value as number })).toThrow(
        expect.objectContaining({ code: "INVALID_OPTION" }),
      );
    },
  );

  it("lets a process that never closes its sink exit on its own, without a warning when the sink is collected", () => {
    const path = join(dir, "trace.jsonl");
    const child = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", UNCLOSED_CHILD, path], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });

    expect(child.error).toBeUndefined();
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    expect(child.stdout).toBe(`${JSON.stringify({ kept: true, collected: true })}\n`);
  });
});
