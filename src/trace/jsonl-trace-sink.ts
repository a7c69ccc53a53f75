import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { openTraceFile, type OpenedTraceFile, type TraceFile } from "./trace-file.js";
import { serializeTraceLine } from "./trace-line.js";
import { emitTraceWarning, traceRefused, traceShortWrite, traceUnserializable } from "./trace-warnings.js";

/** Where trace records go. */
export interface TraceSink {
  /** Appends one record; resolves false (never rejects) when it could not be written. */
  append(record: object): Promise<boolean>;
}

/** Options of {@link JsonlTraceSink}. */
export interface JsonlTraceSinkOptions {
  /**
   * Called at most twice per sink: on the first refused path (not a regular file: a
   * `LookupKnowledgeError`) and on the first failed write (the system error, or a
   * `LookupKnowledgeError` for a short write). @default emits a process warning with code `LOOKUP_KNOWLEDGE_TRACE`
   */
  onFirstError?: (error: unknown, path: string) => void;
  /** Opens the file for one append (useful for testing). @default openTraceFile */
  openFile?: (path: string) => Promise<OpenedTraceFile>;
}

/** Whether the file ends inside a line after a write of `written` of `total` bytes, `prefix` of them a boundary newline. */
function endsMidLine(wasMidLine: boolean, prefix: number, written: number, total: number): boolean {
  if (written === total) return false;
  if (written === 0) return wasMidLine;
  return written > prefix;
}

/**
 * Appends JSON lines to a file. Each record becomes one line of at most `MAX_TRACE_LINE_BYTES`
 * (long fields cut, see `boundRecord`), written with exactly one `write(2)` on an `O_APPEND`
 * descriptor, so that lines from several processes never interleave; appends of this process
 * are queued. The file is opened for each append, so a rotated or deleted trace is followed by a
 * new file and no descriptor outlives a lookup; a path that is not a regular file (FIFO,
 * directory, device, socket) is refused. After a short write the next line starts with a
 * newline, so that no record is glued to the fragment; it also does so when the file ends in a
 * fragment someone else left. `append` resolves true only when the whole line was written and
 * never rejects.
 */
export class JsonlTraceSink implements TraceSink {
  private queue: Promise<unknown> = Promise.resolve();
  private dirReady: Promise<unknown> | null = null;
  /** True while the file may end in a fragment of a line this sink wrote. */
  private midLine = false;
  private readonly warned = { refused: false, failed: false };
  private readonly onFirstError: (error: unknown, path: string) => void;
  private readonly openFile: (path: string) => Promise<OpenedTraceFile>;

  constructor(
    readonly path: string,
    options: JsonlTraceSinkOptions = {},
  ) {
    this.onFirstError = options.onFirstError ?? emitTraceWarning;
    this.openFile = options.openFile ?? openTraceFile;
  }

  append(record: object): Promise<boolean> {
    const write = this.queue.then(() => this.write(record));
    this.queue = write;
    return write;
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

  private async write(record: object): Promise<boolean> {
    let file: TraceFile | null = null;
    try {
      const serialized = serializeTraceLine(record);
      if (!serialized.ok) return this.warn("failed", traceUnserializable(this.path, serialized.reason));
      this.dirReady ??= mkdir(dirname(this.path), { recursive: true });
      await this.dirReady;
      const opened = await this.openFile(this.path);
      if ("refused" in opened) return this.warn("refused", traceRefused(this.path, opened.refused));
      file = opened.file;
      const prefix = this.midLine || !(await file.endsWithNewline()) ? "\n" : "";
      const data = Buffer.from(prefix + serialized.line, "utf8");
      const written = await file.write(data);
      this.midLine = endsMidLine(this.midLine, prefix.length, written, data.length);
      const closing = file;
      file = null;
      await closing.close();
      return written === data.length || this.warn("failed", traceShortWrite(this.path, written, data.length));
    } catch (error) {
      this.dirReady = null;
      return this.warn("failed", error);
    } finally {
      await file?.close().catch(() => {});
    }
  }
}
