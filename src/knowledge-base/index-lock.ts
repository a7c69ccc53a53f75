import { randomBytes } from "node:crypto";
import { readFileSync, unlinkSync } from "node:fs";
import { unlink } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { errorMessage, LookupKnowledgeError } from "../errors.js";
import { makeFolders } from "../make-folders.js";
import { LOCK_FILE } from "./index-layout.js";
import { describeOwner, isStaleLock, parseLockFile, type LockOwner } from "./lock-file.js";
import { readLock, takeOver, tryCreate } from "./lock-file-io.js";
import { processAlive } from "./process-alive.js";

/** Options of {@link acquireIndexLock}. */
export interface IndexLockOptions {
  /** How long to wait for a lock another live writer holds, in milliseconds; 0 fails at once. @default 0 */
  waitMs?: number;
  /** How often a waiting writer looks again, in milliseconds. @default 100 */
  pollMs?: number;
  /** Called once when the lock is held by another writer and this one starts waiting. @default no-op */
  onWaiting?: (owner: LockOwner | null) => void;
}

/** The writer lock of one index folder, held by this process until {@link IndexLock.release}. */
export interface IndexLock {
  /** The index folder, as given. */
  readonly dir: string;
  /** What the lock file records. */
  readonly owner: LockOwner;
  /**
   * Checks that the lock file is still this holder's (not taken over as stale meanwhile).
   * @throws LookupKnowledgeError `INDEX_LOCKED` when it is not.
   */
  assertHeld(): Promise<void>;
  /** Removes the lock file if it is still this holder's; calling it again does nothing. */
  release(): Promise<void>;
}

/** Lock files this process holds, removed when it exits without releasing them. */
const held = new Map<string, string>();
let exitHookInstalled = false;

function removeHeldOnExit(): void {
  for (const [path, token] of held) {
    try {
      if (parseLockFile(readFileSync(path, "utf8"))?.token === token) unlinkSync(path);
    } catch {
      // Nothing more can be done while exiting; the next writer takes the dead lock over.
    }
  }
}

function cannotLock(dir: string, error: unknown): LookupKnowledgeError {
  return new LookupKnowledgeError(
    "INDEX_WRITE_FAILED",
    `cannot take the writer lock of "${dir}" (${errorMessage(error)}); check that the folder exists and is writable.`,
    { cause: error },
  );
}

function lockedError(dir: string, path: string, owner: LockOwner | null, waitedMs: number): LookupKnowledgeError {
  const waited = waitedMs > 0 ? ` after waiting ${Math.round(waitedMs / 1000)} s` : "";
  return new LookupKnowledgeError(
    "INDEX_LOCKED",
    `the index in "${dir}" is being written by ${describeOwner(owner)}: it holds the lock ${path}${waited}. Wait for that run to finish (or give it longer: \`index --lock-wait SECONDS\`, the \`lockWaitMs\` save option), or, if that process is gone, remove ${path}.`,
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Takes the writer lock of the index folder `dir` (`<dir>/.lookup-knowledge.lock`, created
 * atomically, holding `{pid, host, startedAt}`), creating the folder when it is missing. A lock
 * whose owner ran on this host and is gone is taken over; one a live writer holds is waited for,
 * up to `waitMs`. Release it in a `finally`; it is also removed when the process exits.
 * @throws LookupKnowledgeError `INDEX_LOCKED` naming the holder when it is still held after
 * `waitMs`; `INDEX_WRITE_FAILED` when the lock file cannot be made.
 * @example
 * const lock = await acquireIndexLock(".index", { waitMs: 60_000 });
 * try {
 *   const { knowledgeBase } = await (await KnowledgeBase.load(".index")).update({ corpusDir: "corpus" });
 *   await knowledgeBase.save(".index", { lock });
 * } finally {
 *   await lock.release();
 * }
 */
export async function acquireIndexLock(dir: string, options: IndexLockOptions = {}): Promise<IndexLock> {
  const waitMs = options.waitMs ?? 0;
  const pollMs = options.pollMs ?? 100;
  if (!(waitMs >= 0) || !(pollMs > 0))
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `lock waitMs must be 0 or more and pollMs more than 0, got ${waitMs} and ${pollMs}.`,
    );
  const path = join(dir, LOCK_FILE);
  const owner: LockOwner = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    token: randomBytes(8).toString("hex"),
  };
  const started = Date.now();
  let waiting = false;
  try {
    await makeFolders(dir);
    for (;;) {
      if (await tryCreate(path, owner)) break;
      const current = await readLock(path);
      if (current === null) continue;
      const holder = parseLockFile(current.text);
      if (isStaleLock(holder, { host: owner.host, alive: processAlive, ageMs: current.ageMs })) {
        await takeOver(path, current.text);
        continue;
      }
      const waited = Date.now() - started;
      if (waited >= waitMs) throw lockedError(dir, path, holder, waited);
      if (!waiting) options.onWaiting?.(holder);
      waiting = true;
      await sleep(Math.min(pollMs, waitMs - waited));
    }
  } catch (error) {
    throw error instanceof LookupKnowledgeError ? error : cannotLock(dir, error);
  }
  held.set(path, owner.token);
  if (!exitHookInstalled) process.on("exit", removeHeldOnExit);
  exitHookInstalled = true;
  let released = false;
  return {
    dir,
    owner,
    async assertHeld() {
      const current = await readLock(path).catch(() => null);
      const holder = current === null ? null : parseLockFile(current.text);
      if (holder?.token === owner.token) return;
      throw new LookupKnowledgeError(
        "INDEX_LOCKED",
        `lost the writer lock of "${dir}" (${path} now names ${describeOwner(holder)}); nothing was committed. Run again once no other writer runs.`,
      );
    },
    async release() {
      if (released) return;
      released = true;
      held.delete(path);
      const current = await readLock(path).catch(() => null);
      if (current !== null && parseLockFile(current.text)?.token === owner.token)
        await unlink(path).catch(() => undefined);
    },
  };
}
