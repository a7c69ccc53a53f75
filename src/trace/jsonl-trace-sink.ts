import { dirname } from "node:path";
import { LookupKnowledgeError } from "../errors.js";
import { openTraceFile, type OpenedTraceFile, type TraceFile } from "./trace-file.js";
import { serializeTraceLine } from "./trace-line.js";
import { emitTraceWarning, traceRefused, traceShortWrite, traceUnserializable } from "./trace-warnings.js";
import { makeFolders } from "../make-folders.js";
import { shownJson } from "../shown-value.js";

/** Where trace records go. */
export interface TraceSink {
  /** Appends one record; resolves false (never rejects) when it could not be written. */
  append(record: object): Promise<boolean>;
  /** Releases what the sink holds open, after the appends already queued; optional for sinks that hold nothing. */
  close?(): Promise<void>;
}

/** Default of {@link JsonlTraceSinkOptions.reopenCheckMs}. */
export const DEFAULT_REOPEN_CHECK_MS = 1000;

/** Options of {@link JsonlTraceSink}. */
export interface JsonlTraceSinkOptions {
  /**
   * Called at most twice per sink: on the first refused path (not a regular file: a
   * `LookupKnowledgeError`) and on the first failed write (the system error, or a
   * `LookupKnowledgeError` for a short write). @default emits a process warning with code `LOOKUP_KNOWLEDGE_TRACE`
   */
  onFirstError?: (error: unknown, path: string) => void;
  /**
   * Milliseconds between checks that the path still names the open file (a `stat` of the path
   * compared by device and inode with the descriptor). When it does not (the trace was renamed
   * away by a rotation, or replaced), the next append opens the path again, so lines written up
   * to this long after a rotation still go to the old, renamed file. A deleted file (no name
   * left) is noticed on the next append whatever this is, from the descriptor's link count.
   * `0` checks before every append. A finite number from 0 up.
   * @default 1000
   */
  reopenCheckMs?: number;
  /** Opens the file, kept open across appends until it must be reopened or the sink is closed (useful for testing). @default openTraceFile */
  openFile?: (path: string) => Promise<OpenedTraceFile>;
}

/** Whether the file ends inside a line after a write of `written` of `total` bytes, `prefix` of them a boundary newline. */
function endsMidLine(wasMidLine: boolean, prefix: number, written: number, total: number): boolean {
  if (written === total) return false;
  if (written === 0) return wasMidLine;
  return written > prefix;
}

function checkInterval(value: unknown): number {
  if (value === undefined) return DEFAULT_REOPEN_CHECK_MS;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `option reopenCheckMs must be a finite number of milliseconds from 0 up, got ${shownJson(value)}.`,
    );
  }
  return value;
}

/**
 * Appends JSON lines to a file. Each record becomes one line of at most `MAX_TRACE_LINE_BYTES`
 * (long fields cut, see `boundRecord`), written with exactly one `write(2)` on an `O_APPEND`
 * descriptor, so that lines from several processes never interleave; appends of this process
 * are queued in call order. The descriptor stays open between appends; at most once per
 * `reopenCheckMs` the sink checks that the path still names it, and opens the path again when
 * the trace was rotated or replaced (at once when it was deleted). A path that is not a regular file (FIFO,
 * directory, device, socket) is refused. After a short write the next line starts with a
 * newline, so that no record is glued to the fragment; it also does so when the file ends in a
 * fragment someone else left. `append` resolves true only when the whole line was written and
 * never rejects. {@link close} releases the descriptor; an append after it opens the file again.
 * A sink that is never closed keeps no process alive, and its descriptor is closed when the
 * sink is garbage-collected.
 * @example
 * const sink = new JsonlTraceSink("traces/tool_invocation.jsonl");
 * await sink.append({ type: "tool_invocation", invocation_id: "inv-1" });
 * await sink.close();
 */
export class JsonlTraceSink implements TraceSink {
  /** The JSONL file the records are appended to, as given. */
  readonly path: string;
  private queue: Promise<unknown> = Promise.resolve();
  private file: TraceFile | null = null;
  /** `performance.now()` when the path was last found to name the open file. */
  private checkedAt = 0;
  /** True while the file may end in a fragment of a line this sink wrote. */
  private midLine = false;
  private readonly warned = { refused: false, failed: false };
  private readonly onFirstError: (error: unknown, path: string) => void;
  private readonly openFile: (path: string) => Promise<OpenedTraceFile>;
  private readonly reopenCheckMs: number;

  /**
   * Opens nothing yet: the first append creates the file (and its folders) when missing.
   * @param path - the JSONL file the records are appended to
   * @throws LookupKnowledgeError `INVALID_OPTION` for a bad `reopenCheckMs`.
   */
  constructor(path: string, options: JsonlTraceSinkOptions = {}) {
    this.path = path;
    this.onFirstError = options.onFirstError ?? emitTraceWarning;
    this.openFile = options.openFile ?? openTraceFile;
    this.reopenCheckMs = checkInterval(options.reopenCheckMs);
  }

  /**
   * Queues `record` as one JSON line after the appends before it; resolves true once the whole
   * line is written, false (never rejects) when it could not be; the first refused path and the
   * first failed write also go to `onFirstError`.
   */
  append(record: object): Promise<boolean> {
    const write = this.queue.then(() => this.write(record));
    this.queue = write;
    return write;
  }

  /** Waits for the queued appends, then closes the file; never rejects. */
  close(): Promise<void> {
    const closing = this.queue.then(() => this.release());
    this.queue = closing;
    return closing;
  }

  private warn(kind: "refused" | "failed", error: unknown): false {
    if (!this.warned[kind]) {
      this.warned[kind] = true;
      try {
        this.onFirstError(error, this.path);
      } catch {
        // A broken warning handler must not break the never-reject contract, nor the queue.
      }
    }
    return false;
  }

  private async release(): Promise<void> {
    const file = this.file;
    this.file = null;
    await file?.close().catch(() => {});
  }

  /** Drops the open file for the one the path names now. */
  private async abandon(): Promise<void> {
    await this.release();
    // The fragment a short write left is in the old file, not in the one the path names now.
    this.midLine = false;
  }

  /** The open file, reopened when the path names another file by now; or why the path is refused. */
  private async current(): Promise<OpenedTraceFile> {
    if (this.file !== null) {
      const now = performance.now();
      if (now - this.checkedAt < this.reopenCheckMs) return { file: this.file };
      if (await this.file.isStillAtPath()) {
        this.checkedAt = now;
        return { file: this.file };
      }
      await this.abandon();
    }
    return this.open();
  }

  private async open(): Promise<OpenedTraceFile> {
    await makeFolders(dirname(this.path));
    const opened = await this.openFile(this.path);
    if ("file" in opened) {
      this.file = opened.file;
      this.checkedAt = performance.now();
    }
    return opened;
  }

  private async write(record: object): Promise<boolean> {
    try {
      const serialized = serializeTraceLine(record);
      if (!serialized.ok) return this.warn("failed", traceUnserializable(this.path, serialized.reason));
      let opened = await this.current();
      if ("refused" in opened) return this.warn("refused", traceRefused(this.path, opened.refused));
      let state = await opened.file.inspect();
      if (!state.linked) {
        // Deleted since the last append: noticed now rather than at the next path check.
        await this.abandon();
        opened = await this.open();
        if ("refused" in opened) return this.warn("refused", traceRefused(this.path, opened.refused));
        state = await opened.file.inspect();
      }
      const { file } = opened;
      const prefix = this.midLine || !state.endsWithNewline ? "\n" : "";
      const data = Buffer.from(prefix + serialized.line, "utf8");
      const written = await file.write(data);
      this.midLine = endsMidLine(this.midLine, prefix.length, written, data.length);
      return written === data.length || this.warn("failed", traceShortWrite(this.path, written, data.length));
    } catch (error) {
      // The descriptor may be what failed (EIO, EBADF): the next append starts from a fresh open.
      await this.release();
      return this.warn("failed", error);
    }
  }
}
