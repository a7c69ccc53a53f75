import { execFileSync } from "node:child_process";
import { closeSync, constants, openSync, readSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { errorMessage } from "../../src/errors.js";
import { createLookupKnowledgeTool, KnowledgeBase, type LookupResult } from "../../src/index.js";
import { JsonlTraceSink } from "../../src/trace/jsonl-trace-sink.js";
import { readTraceFile } from "../../src/trace/read-trace-file.js";
import { MAX_TRACE_LINE_BYTES } from "../../src/trace/trace-limits.js";
import { serializeTraceLine } from "../../src/trace/trace-line.js";
import { KB_DIR } from "../integration/helpers/integration-fixtures.js";
import { recordFigures } from "./helpers/figures.js";
import { auditTraceFile, lostIds } from "./helpers/trace-lines.js";

const DISK_FULL = "trace appends on a full 256 KiB tmpfs, then with space freed";
const NOT_REGULAR = "trace paths that are not regular files (FIFO with and without a reader, directory, /dev/null)";

/** A record of 5 to 20 KB, always more than a 4 KiB page, so that no append fits in what a fragment left of one. */
function paddedRecord(i: number): { type: string; invocation_id: string; padding: string } {
  return { type: "tool_invocation", invocation_id: `full-${i}`, padding: "x".repeat(5_000 + ((i * 3_779) % 15_000)) };
}

function lineOf(record: object): string {
  const serialized = serializeTraceLine(record);
  if (!serialized.ok) throw new Error(serialized.reason);
  return serialized.line;
}

/** Appends and counts: what was tried, what was reported written, what rejected (a contract break: a crash). */
function appendLog(sink: JsonlTraceSink) {
  const log = { tried: 0, written: [] as string[], failedLines: [] as string[], rejected: 0 };
  return {
    log,
    /** Releases the trace file, which the sink keeps open between appends (the tmpfs could not be unmounted otherwise). */
    close: () => sink.close(),
    async append(record: { invocation_id: string }): Promise<boolean> {
      log.tried++;
      const ok = await sink.append(record).catch(() => {
        log.rejected++;
        return false;
      });
      if (ok) log.written.push(record.invocation_id);
      else log.failedLines.push(lineOf(record));
      return ok;
    },
  };
}

describe("the trace on a full disk", () => {
  let base: string;
  let mountPoint: string;
  let mounted = false;
  let cannotMount: string | null = null;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "trace-disk-full-"));
    mountPoint = join(base, "tmpfs");
    await mkdir(mountPoint);
    if (process.getuid?.() !== 0) {
      cannotMount = "mounting a tmpfs needs root";
      return;
    }
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", mountPoint], { stdio: "pipe" });
      mounted = true;
    } catch (error) {
      cannotMount = `mount -t tmpfs failed here (${errorMessage(error).split("\n")[0]})`;
    }
  });
  afterAll(async () => {
    if (mounted) execFileSync("umount", [mountPoint]);
    await rm(base, { recursive: true, force: true });
  });

  it("keeps every line reported written whole, and glues no record to the fragment a full disk left", async (ctx) => {
    if (cannotMount !== null) {
      recordFigures({ scenario: DISK_FULL, skippedBecause: cannotMount });
      ctx.skip(cannotMount);
    }
    const filler = join(mountPoint, "filler");
    await writeFile(filler, Buffer.alloc(128 * 1024, 1));
    const tracePath = join(mountPoint, "traces", "tool_invocation.jsonl");
    const errors: unknown[] = [];
    const { log, append, close } = appendLog(
      new JsonlTraceSink(tracePath, { onFirstError: (error) => errors.push(error) }),
    );
    let i = 0;

    while ((await append(paddedRecord(i++))) && i < 1_000);
    const afterFull = [];
    for (let n = 0; n < 5; n++) afterFull.push(await append(paddedRecord(i++)));
    await rm(filler);
    const afterFreed = [];
    for (let n = 0; n < 5; n++) afterFreed.push(await append(paddedRecord(i++)));
    await close();

    const audit = await auditTraceFile(tracePath, MAX_TRACE_LINE_BYTES);
    const lost = lostIds(log.written, audit.ids);
    // A broken line must be the start of a line whose append reported false; anything else is a torn or glued record.
    const foreign = audit.broken.filter((line) => !log.failedLines.some((failed) => failed.startsWith(line)));
    recordFigures({
      scenario: DISK_FULL,
      inputsTried: log.tried,
      faultsInjected: log.failedLines.length,
      linesLost: lost.length,
      crashes: log.rejected,
    });

    expect(log.written.length).toBeGreaterThan(3);
    expect(afterFull).toEqual([false, false, false, false, false]);
    expect(afterFreed).toEqual([true, true, true, true, true]);
    expect(log.rejected).toBe(0);
    expect(lost).toEqual([]);
    expect(foreign.length, "lines that are neither whole records nor the start of a failed one").toBe(0);
    // The full disk did leave a fragment: the scenario tests the boundary, not only ENOSPC.
    expect(audit.broken.length).toBeGreaterThanOrEqual(1);
    expect(audit.oversized).toBe(0);
    expect(audit.endsWithNewline).toBe(true);
    const read = await readTraceFile(tracePath);
    expect(read.records.map((record) => record.invocation_id)).toEqual(log.written);
    expect(read.skippedLines).toBe(audit.broken.length + audit.blank);
    expect(errors).toHaveLength(1);
  });
});

describe("trace paths that are not regular files", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "trace-not-regular-"));
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  it("refuses a FIFO with and without a reader, a directory and /dev/null promptly, with one warning each, and never hangs a lookup", async () => {
    const fifo = join(dir, "trace.fifo");
    execFileSync("mkfifo", [fifo]);
    const warnings: string[] = [];
    const onFirstError = (error: unknown) => warnings.push(errorMessage(error));
    let tried = 0;
    let reportedWritten = 0;
    let rejected = 0;
    const attempt = async (sink: JsonlTraceSink, n: number) => {
      for (let k = 0; k < n; k++) {
        tried++;
        const ok = await sink
          .append({ type: "tool_invocation", invocation_id: `p-${tried}` })
          .catch(() => (rejected++, false));
        if (ok) reportedWritten++;
      }
    };

    await attempt(new JsonlTraceSink(fifo, { onFirstError }), 3);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    let leaked = 0;
    try {
      await attempt(new JsonlTraceSink(fifo, { onFirstError }), 3);
      try {
        leaked = readSync(reader, Buffer.alloc(1024));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      }
    } finally {
      closeSync(reader);
    }
    await attempt(new JsonlTraceSink(dir, { onFirstError }), 3);
    await attempt(new JsonlTraceSink("/dev/null", { onFirstError }), 3);

    // The real tool over a FIFO trace: every call answers, without a trace and with one process warning.
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    const kb = await KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} });
    const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: fifo });
    const messages = await Promise.all(
      Array.from({ length: 5 }, (_, n) =>
        lookup.invoke({ type: "tool_call", id: `call_${n}`, name: lookup.name, args: { query: "refund approval" } }),
      ),
    );
    tried += messages.length;
    reportedWritten += messages.filter((message) => (message.artifact as LookupResult).traceWritten).length;
    recordFigures({
      scenario: NOT_REGULAR,
      inputsTried: tried,
      faultsInjected: 4,
      linesLost: reportedWritten + leaked,
      crashes: rejected,
    });

    expect(reportedWritten).toBe(0);
    expect(leaked).toBe(0);
    expect(rejected).toBe(0);
    expect(warnings).toEqual([
      expect.stringContaining("is a FIFO, not a regular file"),
      expect.stringContaining("is a FIFO, not a regular file"),
      expect.stringContaining("is a directory, not a regular file"),
      expect.stringContaining("is a character device, not a regular file"),
    ]);
    expect(messages.every((message) => String(message.content).length > 0)).toBe(true);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toContain("is a FIFO, not a regular file");
  });
});
