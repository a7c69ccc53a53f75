import type { Stats } from "node:fs";
import { errorMessage } from "../errors.js";

const REASONS: Readonly<Record<string, string>> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  ENOENT: "it does not exist (any more)",
  ELOOP: "it points at itself through a loop of symlinks",
  EISDIR: "it is a folder",
  EIO: "input/output error",
  ENXIO: "no such device",
  EMFILE: "too many open files",
  ENFILE: "too many open files",
  ENAMETOOLONG: "the path is too long",
};

/** A short, stable reason for a failed file system call: `permission denied`, not a stack. */
export function describeFsError(error: unknown): string {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
  return Object.hasOwn(REASONS, code) ? REASONS[code] : errorMessage(error);
}

/** What a non-regular file is, for a skip reason: `a FIFO`, `a socket`, `a character device`... */
export function describeFileKind(info: Stats): string {
  if (info.isFIFO()) return "a FIFO";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isDirectory()) return "a folder";
  if (info.isSymbolicLink()) return "a symlink";
  return "not a regular file";
}
