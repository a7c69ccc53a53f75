import { appendFile, mkdir } from "node:fs/promises";
import { dirname } from "node:path";

/** Where trace records go. */
export interface TraceSink {
  /** Appends one record; resolves false (never rejects) when it could not be written. */
  append(record: object): Promise<boolean>;
}

/** Options of {@link JsonlTraceSink}. */
export interface JsonlTraceSinkOptions {
  /** Called once, on the first failed write. @default writes one line to stderr */
  onFirstError?: (error: unknown, path: string) => void;
}

/**
 * Appends JSON lines to a file. Each record is serialised first and written with one append
 * call, and appends are chained so that concurrent lookups in this process never interleave
 * or lose a line. A failed write is reported once and never fails the lookup.
 */
export class JsonlTraceSink implements TraceSink {
  private queue: Promise<unknown> = Promise.resolve();
  private warned = false;
  private dirReady: Promise<unknown> | null = null;
  private readonly onFirstError: (error: unknown, path: string) => void;

  constructor(
    readonly path: string,
    options: JsonlTraceSinkOptions = {},
  ) {
    this.onFirstError =
      options.onFirstError ??
      ((error, path) => {
        const detail = error instanceof Error ? error.message : String(error);
        process.stderr.write(`lookup-knowledge: cannot write the trace to "${path}" (${detail}); lookups go on without a trace.\n`);
      });
  }

  append(record: object): Promise<boolean> {
    const line = `${JSON.stringify(record)}\n`;
    const write = this.queue.then(async () => {
      try {
        this.dirReady ??= mkdir(dirname(this.path), { recursive: true });
        await this.dirReady;
        await appendFile(this.path, line, "utf8");
        return true;
      } catch (error) {
        this.dirReady = null;
        if (!this.warned) {
          this.warned = true;
          this.onFirstError(error, this.path);
        }
        return false;
      }
    });
    this.queue = write;
    return write;
  }
}
