import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";

/** Total size in bytes of the regular files below `dir` (symlinks not followed). */
export async function dirBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await dirBytes(path);
    else if (entry.isFile()) total += (await lstat(path)).size;
  }
  return total;
}

/** Size of each regular file below `dir`, keyed by its path relative to `dir`. */
export async function fileSizes(dir: string, prefix = ""): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const name = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(out, await fileSizes(path, name));
    else if (entry.isFile()) out[name] = (await lstat(path)).size;
  }
  return out;
}
