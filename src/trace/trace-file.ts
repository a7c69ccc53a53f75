/** Opening the trace file for one append: the only place the sink touches the file system. */
import { constants, type Stats } from "node:fs";
import { open, stat, type FileHandle } from "node:fs/promises";

/** An open trace file, for one append. */
export interface TraceFile {
  /** True when the file is empty or its last byte is a newline (also when that cannot be read). */
  endsWithNewline(): Promise<boolean>;
  /** Writes `data` with one `write(2)` at the end of the file; resolves the bytes written. */
  write(data: Uint8Array): Promise<number>;
  close(): Promise<void>;
}

/** An opened trace file, or what the path is when it is not a regular file (`"a FIFO"`). */
export type OpenedTraceFile = { file: TraceFile } | { refused: string };

const { O_APPEND, O_CREAT, O_NONBLOCK, O_RDWR, O_WRONLY } = constants;
/** O_APPEND makes every write land at the end, whoever else appends; O_NONBLOCK keeps a FIFO from blocking the open. */
const READ_WRITE = O_RDWR | O_APPEND | O_CREAT | O_NONBLOCK;
const WRITE_ONLY = O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK;

/** What a non-regular file is, in words; null for a regular file (pure). */
export function nonRegularKind(stats: Pick<Stats, "isFile" | "isDirectory" | "isFIFO" | "isCharacterDevice" | "isBlockDevice" | "isSocket">): string | null {
  if (stats.isFile()) return null;
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isDirectory()) return "a directory";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}

async function kindOfPath(path: string): Promise<string | null> {
  try {
    return nonRegularKind(await stat(path));
  } catch {
    return null;
  }
}

function codeOf(error: unknown): unknown {
  return error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
}

function traceFile(handle: FileHandle, size: number, readable: boolean): TraceFile {
  return {
    async endsWithNewline() {
      if (size === 0 || !readable) return true;
      const { bytesRead, buffer } = await handle.read(Buffer.alloc(1), 0, 1, size - 1);
      if (bytesRead === 0 || buffer[0] === 0x0a) return true;
      // A file that grew meanwhile was read in the middle of another process's write, which
      // ends with its newline before ours lands (O_APPEND writes are serialised); only a file
      // that stays put ends in a fragment.
      return (await handle.stat()).size !== size;
    },
    async write(data) {
      return (await handle.write(data)).bytesWritten;
    },
    close: () => handle.close(),
  };
}

/**
 * Opens `path` for one append. A path that exists and is not a regular file is refused before it
 * is opened (opening a FIFO would wake its reader); the descriptor is checked again with fstat,
 * in case the path changed in between. A file that can be written but not read is opened
 * write-only; the sink then knows line boundaries only from its own writes.
 */
export async function openTraceFile(path: string): Promise<OpenedTraceFile> {
  const before = await kindOfPath(path);
  if (before !== null) return { refused: before };
  let handle: FileHandle;
  let readable = true;
  try {
    handle = await open(path, READ_WRITE, 0o666).catch((error: unknown) => {
      if (codeOf(error) !== "EACCES") throw error;
      readable = false;
      return open(path, WRITE_ONLY, 0o666);
    });
  } catch (error) {
    // ENXIO (a FIFO without a reader, a socket) or EISDIR when the path changed since the stat.
    const kind = await kindOfPath(path);
    if (kind !== null) return { refused: kind };
    throw error;
  }
  const stats = await handle.stat().catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  const kind = nonRegularKind(stats);
  if (kind !== null) {
    await handle.close();
    return { refused: kind };
  }
  return { file: traceFile(handle, stats.size, readable) };
}
