import { mkdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";

/**
 * `mkdir -p` one folder at a time. Node's `mkdir(dir, { recursive: true })` spins forever on a
 * folder the kernel never lets exist (`/proc/x/y` on Linux: ENOENT although the parent exists);
 * here that fails at once with the error of the folder that could not be made.
 */
export async function makeFolders(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let at = resolve(dir); (await stat(at).catch(() => null)) === null; at = dirname(at)) {
    missing.push(at);
    if (dirname(at) === at) break;
  }
  for (const folder of missing.reverse()) {
    await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
  }
}
