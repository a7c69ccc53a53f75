/**
 * Private scratch folders (in an index folder, or the system's temporary folder), named after the
 * process that made them, so that those of processes killed while using them can be removed by a
 * later one.
 */
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errorMessage, LookupKnowledgeError } from "../errors.js";
import { writeNewFile } from "./durable-fs.js";
import { processAlive } from "./process-alive.js";

/**
 * Removes the folders `<prefix><pid>-*` in `parent` that this user owns and whose process is no
 * longer running; returns how many, calling `onRemoved` with each name. Failures are ignored:
 * another process may be sweeping too.
 */
export async function sweepDeadScratch(
  prefix: string,
  parent = tmpdir(),
  onRemoved: (name: string) => void = () => undefined,
): Promise<number> {
  const pattern = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}([1-9][0-9]{0,9})-`);
  let removed = 0;
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    const pid = Number(pattern.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || processAlive(pid)) continue;
    const path = join(parent, name);
    const info = await stat(path).catch(() => null);
    if (info === null || !info.isDirectory() || (process.getuid !== undefined && info.uid !== process.getuid()))
      continue;
    await rm(path, { recursive: true, force: true }).then(
      () => ((removed += 1), onRemoved(name)),
      () => undefined,
    );
  }
  return removed;
}

/** A new private folder `<prefix><pid>-<random>` in `parent`. */
export async function makeScratch(prefix: string, parent = tmpdir()): Promise<string> {
  return mkdtemp(join(parent, `${prefix}${process.pid}-`));
}

/**
 * Puts a file `name` in a new scratch folder of the first of `parents` where that works (a full
 * disk or a read-only folder moves on to the next): `bytes` written, or `place` called with its
 * path (a `LookupKnowledgeError` from `place` is thrown as is, any other failure moves on). Then
 * runs `use` on its path and removes the folder. Dead processes' folders in that parent are swept first.
 * @throws LookupKnowledgeError `SCRATCH_UNAVAILABLE` naming every folder tried and its error,
 * when none works; what `use` throws, as is.
 */
export async function withScratchFile<T>(
  parents: readonly string[],
  prefix: string,
  name: string,
  bytes: Uint8Array | ((file: string) => Promise<void>),
  use: (file: string) => Promise<T>,
): Promise<T> {
  const failures: string[] = [];
  for (const parent of parents) {
    let scratch: string;
    try {
      await sweepDeadScratch(prefix, parent);
      scratch = await makeScratch(prefix, parent);
    } catch (error) {
      failures.push(`${parent}: ${describeFailure(error)}`);
      continue;
    }
    try {
      const file = join(scratch, name);
      try {
        await (typeof bytes === "function" ? bytes(file) : writeNewFile(file, bytes, 0o600));
      } catch (error) {
        if (error instanceof LookupKnowledgeError) throw error;
        failures.push(`${parent}: ${describeFailure(error)}`);
        continue;
      }
      return await use(file);
    } finally {
      await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
    }
  }
  throw new LookupKnowledgeError(
    "SCRATCH_UNAVAILABLE",
    `no scratch folder to hand hnswlib the vector index (${failures.join("; ")}). Free some space, or make the index folder or TMPDIR writable.`,
  );
}

function describeFailure(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? `${code}, ${errorMessage(error)}` : errorMessage(error);
}
