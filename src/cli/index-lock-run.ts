import { existsSync } from "node:fs";
import { errorMessage } from "../errors.js";
import { collectGarbage } from "../knowledge-base/index-folder.js";
import { acquireIndexLock, type IndexLock } from "../knowledge-base/index-lock.js";

/**
 * Runs `run` holding the writer lock of `out`: the one given, or one taken for the run (waiting up
 * to `waitMs`, saying once whom it waits for) and released after it.
 * @throws LookupKnowledgeError `INDEX_LOCKED` when the lock stays held by another writer.
 */
export async function withIndexLock<T>(
  out: string,
  log: (line: string) => void,
  waitMs: number,
  given: IndexLock | undefined,
  run: (lock: IndexLock) => Promise<T>,
): Promise<T> {
  if (given !== undefined) return run(given);
  const lock = await acquireIndexLock(out, {
    waitMs,
    onWaiting: (owner) =>
      log(
        `waiting for the index lock held by ${owner === null ? "an unknown process" : `pid ${owner.pid} on ${owner.host}`} (up to ${Math.round(waitMs / 1000)} s)`,
      ),
  });
  try {
    return await run(lock);
  } finally {
    await lock.release();
  }
}

/**
 * Removes what killed writers left in `out` (generation folders no manifest names, their
 * `.writing` markers, dead processes' scratch folders); call it holding the lock, so that no live
 * writer's files are there. Logs what went and what could not.
 */
export async function sweepLeftovers(out: string, log: (line: string) => void): Promise<void> {
  if (!existsSync(out)) return;
  const removed: string[] = [];
  const problems = await collectGarbage(out, (name) => removed.push(name)).catch((error: unknown) => [
    errorMessage(error),
  ]);
  if (removed.length > 0)
    log(
      `lookup-knowledge: removed ${removed.length} ${removed.length === 1 ? "leftover" : "leftovers"} of interrupted runs from ${out}: ${removed.join(", ")}`,
    );
  for (const problem of problems) log(`lookup-knowledge: ${problem}`);
}
