/**
 * Private scratch folders in the system's temporary folder, named after the process that made
 * them, so that those of processes killed while using them can be removed by a later one.
 */
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** True unless no process has that number (a process of another user counts as running). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === "EPERM";
  }
}

/**
 * Removes the folders `<prefix><pid>-*` in `parent` that this user owns and whose process is no
 * longer running; returns how many. Failures are ignored: another process may be sweeping too.
 */
export async function sweepDeadScratch(prefix: string, parent = tmpdir()): Promise<number> {
  const pattern = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}([1-9][0-9]{0,9})-`);
  let removed = 0;
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    const pid = Number(pattern.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || running(pid)) continue;
    const path = join(parent, name);
    const info = await stat(path).catch(() => null);
    if (info === null || !info.isDirectory() || (process.getuid !== undefined && info.uid !== process.getuid())) continue;
    await rm(path, { recursive: true, force: true }).then(
      () => (removed += 1),
      () => undefined,
    );
  }
  return removed;
}

/** A new private folder `<prefix><pid>-<random>` in `parent`. */
export async function makeScratch(prefix: string, parent = tmpdir()): Promise<string> {
  return mkdtemp(join(parent, `${prefix}${process.pid}-`));
}
