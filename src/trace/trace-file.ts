/** The trace file behind one open descriptor: the only place the sink touches the file system. */
import { close, constants, fstat, open, read, stat, write, type BigIntStats, type Stats } from "node:fs";

/** What {@link TraceFile.inspect} found, just before an append. */
export interface TraceFileState {
  /** False once the file has no name left (deleted, or replaced by a rename onto its path): lines written to it are lost. */
  linked: boolean;
  /**
   * True when the file is empty or its last byte is a newline (also when that cannot be read);
   * other processes may have appended since this sink's last write.
   */
  endsWithNewline: boolean;
}

/** An open trace file; it stays open across appends until {@link TraceFile.close}. */
export interface TraceFile {
  /** Whether the file still has a name and where it ends, read from the descriptor (one `fstat`, and a 1-byte read when needed). */
  inspect(): Promise<TraceFileState>;
  /** Writes `data` with one `write(2)` at the end of the file; resolves the bytes written. */
  write(data: Uint8Array): Promise<number>;
  /**
   * True while the path still names this file (same device and inode); false once it was
   * renamed, deleted or replaced (rotated), so that the sink opens the path again.
   */
  isStillAtPath(): Promise<boolean>;
  /** Releases the descriptor; never rejects. */
  close(): Promise<void>;
}

/** An opened trace file, or what the path is when it is not a regular file (`"a FIFO"`). */
export type OpenedTraceFile = { file: TraceFile } | { refused: string };

const { O_APPEND, O_CREAT, O_NONBLOCK, O_RDWR, O_WRONLY } = constants;
/** O_APPEND makes every write land at the end, whoever else appends; O_NONBLOCK keeps a FIFO from blocking the open. */
const READ_WRITE = O_RDWR | O_APPEND | O_CREAT | O_NONBLOCK;
const WRITE_ONLY = O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK;
const NEWLINE = 0x0a;

/** What a non-regular file is, in words; null for a regular file (pure). */
export function nonRegularKind(
  stats: Pick<Stats, "isFile" | "isDirectory" | "isFIFO" | "isCharacterDevice" | "isBlockDevice" | "isSocket">,
): string | null {
  if (stats.isFile()) return null;
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isDirectory()) return "a directory";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}

function codeOf(error: unknown): unknown {
  return error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
}

// Raw descriptors rather than FileHandles: a FileHandle that is collected unclosed prints a
// warning (and is deprecated), while a sink that is never closed is legitimate; neither keeps
// the process alive.
const openFd = (path: string, flags: number) =>
  new Promise<number>((resolve, reject) =>
    open(path, flags, 0o666, (error, fd) => (error ? reject(error) : resolve(fd))),
  );
const closeFd = (fd: number) => new Promise<void>((resolve) => close(fd, () => resolve()));
const fstatFd = (fd: number) =>
  new Promise<Stats>((resolve, reject) => fstat(fd, (error, stats) => (error ? reject(error) : resolve(stats))));
const fstatBig = (fd: number) =>
  new Promise<BigIntStats>((resolve, reject) =>
    fstat(fd, { bigint: true }, (error, stats) => (error ? reject(error) : resolve(stats))),
  );
const statBig = (path: string) =>
  new Promise<BigIntStats>((resolve, reject) =>
    stat(path, { bigint: true }, (error, stats) => (error ? reject(error) : resolve(stats))),
  );
const writeFd = (fd: number, data: Uint8Array) =>
  new Promise<number>((resolve, reject) =>
    write(fd, data, 0, data.length, null, (error, written) => (error ? reject(error) : resolve(written))),
  );
const readByte = (fd: number, buffer: Buffer, position: number) =>
  new Promise<number>((resolve, reject) =>
    read(fd, buffer, 0, 1, position, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead))),
  );

/** Closes the descriptor of a trace file that was dropped without `close()` once it is collected. */
const unclosed = new FinalizationRegistry<number>((fd) => close(fd, () => {}));

async function kindOfPath(path: string): Promise<string | null> {
  try {
    return nonRegularKind(await statBig(path));
  } catch {
    return null;
  }
}

function traceFile(path: string, fd: number, identity: BigIntStats, readable: boolean): TraceFile {
  const lastByte = Buffer.alloc(1);
  let closed = false;
  /** The size seen by the last `inspect`, until the write that follows it; -1 when none. */
  let sizeBeforeWrite = -1;
  /**
   * Where this file ended after our last whole write, had nobody written between our size check
   * and it; -1 when unknown. A file still of that size ends with our newline: nobody appended
   * since (a file only grows, short of a truncation that refills it to that very size).
   */
  let endOfOwnLine = -1;
  const endsWithNewline = async (size: number): Promise<boolean> => {
    if (!readable || size === 0 || size === endOfOwnLine) return true;
    const bytesRead = await readByte(fd, lastByte, size - 1);
    if (bytesRead === 0 || lastByte[0] === NEWLINE) return true;
    // A file that grew meanwhile was read in the middle of another process's write, which
    // ends with its newline before ours lands (O_APPEND writes are serialised); only a file
    // that stays put ends in a fragment.
    return (await fstatFd(fd)).size !== size;
  };
  const file: TraceFile = {
    async inspect() {
      const { size, nlink } = await fstatFd(fd);
      sizeBeforeWrite = size;
      return { linked: nlink > 0, endsWithNewline: await endsWithNewline(size) };
    },
    async write(data) {
      const before = sizeBeforeWrite;
      sizeBeforeWrite = -1;
      endOfOwnLine = -1;
      const written = await writeFd(fd, data);
      if (before >= 0 && written === data.length && data[data.length - 1] === NEWLINE) endOfOwnLine = before + written;
      return written;
    },
    async isStillAtPath() {
      try {
        const named = await statBig(path);
        return named.ino === identity.ino && named.dev === identity.dev;
      } catch {
        // Gone (ENOENT) or unreachable: opening the path again is what tells which.
        return false;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      unclosed.unregister(file);
      await closeFd(fd);
    },
  };
  unclosed.register(file, fd, file);
  return file;
}

/**
 * Opens `path` for appending until the returned file is closed. A path that exists and is not
 * a regular file is refused before it is opened (opening a FIFO would wake its reader); the
 * descriptor is checked again with fstat, in case the path changed in between. A file that can
 * be written but not read is opened write-only; the sink then knows line boundaries only from
 * its own writes. A file that is never closed is closed when it is garbage-collected, and never
 * keeps the process alive.
 */
export async function openTraceFile(path: string): Promise<OpenedTraceFile> {
  const before = await kindOfPath(path);
  if (before !== null) return { refused: before };
  let fd: number;
  let readable = true;
  try {
    fd = await openFd(path, READ_WRITE).catch((error: unknown) => {
      if (codeOf(error) !== "EACCES") throw error;
      readable = false;
      return openFd(path, WRITE_ONLY);
    });
  } catch (error) {
    // ENXIO (a FIFO without a reader, a socket) or EISDIR when the path changed since the stat.
    const kind = await kindOfPath(path);
    if (kind !== null) return { refused: kind };
    throw error;
  }
  const stats = await fstatBig(fd).catch(async (error: unknown) => {
    await closeFd(fd);
    throw error;
  });
  const kind = nonRegularKind(stats);
  if (kind !== null) {
    await closeFd(fd);
    return { refused: kind };
  }
  return { file: traceFile(path, fd, stats, readable) };
}
