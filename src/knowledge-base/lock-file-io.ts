/** The file operations of the writer lock (`index-lock.ts`): create, read, move a dead one aside. */
import { randomBytes } from "node:crypto";
import { link, open, readFile, rename, stat, unlink } from "node:fs/promises";
import { formatLockFile, type LockOwner } from "./lock-file.js";

/** Creates the lock file with `wx`, filled and flushed; false when it exists already. */
export async function tryCreate(path: string, owner: LockOwner): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, "wx", 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    await handle.writeFile(formatLockFile(owner));
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

/** What the lock file holds now; null when it vanished meanwhile. */
export async function readLock(path: string): Promise<{ text: string; ageMs: number } | null> {
  try {
    const [text, info] = await Promise.all([readFile(path, "utf8"), stat(path)]);
    return { text, ageMs: Date.now() - info.mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * Moves a dead writer's lock aside. Another writer may have taken it over first and made its own
 * lock: the moved file is then compared with the dead one and, when it is not, put back.
 */
export async function takeOver(path: string, seen: string): Promise<void> {
  const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  const moved = await readFile(aside, "utf8").catch(() => seen);
  if (moved !== seen) await link(aside, path).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}
