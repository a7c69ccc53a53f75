/**
 * A small tmpfs for the disk-full scenarios: mounted where the machine allows it (root, or a
 * container with CAP_SYS_ADMIN), otherwise the reason why not, so that the scenario can skip.
 */
import { execFileSync } from "node:child_process";
import { statfs, writeFile } from "node:fs/promises";
import { errorMessage } from "../../../src/errors.js";

/** A mounted tmpfs, or why none could be mounted. */
export type TmpfsMount = { mounted: true; dir: string } | { mounted: false; reason: string };

function run(args: string[]): void {
  execFileSync(args[0], args.slice(1), { stdio: ["ignore", "ignore", "pipe"] });
}

/** Mounts a tmpfs of `size` (e.g. "512k") on the existing folder `dir`. */
export function mountTmpfs(dir: string, size: string): TmpfsMount {
  try {
    run(["mount", "-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir]);
    return { mounted: true, dir };
  } catch (error) {
    const said = String((error as { stderr?: Buffer }).stderr ?? "").trim() || errorMessage(error).split("\n")[0];
    return { mounted: false, reason: `mount -t tmpfs is not permitted here (${said})` };
  }
}

/** Unmounts what {@link mountTmpfs} mounted. */
export function unmountTmpfs(mount: TmpfsMount): void {
  if (mount.mounted) run(["umount", mount.dir]);
}

/** Remounts the tmpfs read-only (`true`) or read-write again (`false`). */
export function remountReadOnly(mount: TmpfsMount, readOnly: boolean): void {
  if (!mount.mounted) throw new Error(`no tmpfs to remount: ${mount.reason}`);
  run(["mount", "-o", `remount,${readOnly ? "ro" : "rw"}`, mount.dir]);
}

/** Bytes still free on the file system of `dir`. */
export async function freeBytes(dir: string): Promise<number> {
  const info = await statfs(dir);
  return info.bavail * info.bsize;
}

/** Writes a filler file at `path` so that exactly `leave` bytes (rounded up to whole blocks) stay free. */
export async function fillDisk(dir: string, path: string, leave: number): Promise<void> {
  const info = await statfs(dir);
  const free = info.bavail * info.bsize;
  const keep = Math.ceil(leave / info.bsize) * info.bsize;
  if (keep > free) throw new Error(`cannot leave ${keep} bytes free on ${dir}: only ${free} are free`);
  await writeFile(path, Buffer.alloc(free - keep));
}
