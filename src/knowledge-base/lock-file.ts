/**
 * The content of an index folder's writer lock and when it may be taken over: pure helpers of
 * `index-lock.ts`.
 */

/** Who holds a writer lock, as its file records it. */
export interface LockOwner {
  /** Process id of the holder. */
  pid: number;
  /** Host name of the machine the holder runs on (`os.hostname()`); a lock of another host is never taken over. */
  host: string;
  /** When the lock was taken (ISO 8601). */
  startedAt: string;
  /** Random per acquisition: tells this holder's lock from a later one of the same process. */
  token: string;
}

/** The text a lock file holds: one JSON object and a newline. */
export function formatLockFile(owner: LockOwner): string {
  return `${JSON.stringify(owner)}\n`;
}

/** The owner a lock file names; null when its text is not a lock record (empty, cut short, garbage). */
export function parseLockFile(text: string): LockOwner | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const { pid, host, startedAt, token } = parsed as Record<string, unknown>;
  if (
    typeof pid !== "number" ||
    !Number.isInteger(pid) ||
    pid <= 0 ||
    typeof host !== "string" ||
    typeof startedAt !== "string"
  )
    return null;
  return { pid, host, startedAt, token: typeof token === "string" ? token : "" };
}

/** What {@link isStaleLock} needs to know about the machine it runs on. */
export interface LockJudge {
  /** This machine's host name. */
  host: string;
  /** True unless no process of that number runs here (`process.kill(pid, 0)` failed with ESRCH). */
  alive: (pid: number) => boolean;
  /** How old the lock file is, in milliseconds (for a file whose text is no lock record). */
  ageMs: number;
}

/**
 * How long a lock file whose text is no record may exist before it counts as left by a writer
 * killed between creating and filling it.
 */
export const UNREADABLE_LOCK_GRACE_MS = 10_000;

/**
 * True when the lock may be taken over: its owner ran on this host and is gone, or the file holds
 * no record and is older than {@link UNREADABLE_LOCK_GRACE_MS}. A lock of another host is never
 * stale: no process there can be checked from here.
 */
export function isStaleLock(owner: LockOwner | null, judge: LockJudge): boolean {
  if (owner === null) return judge.ageMs > UNREADABLE_LOCK_GRACE_MS;
  return owner.host === judge.host && !judge.alive(owner.pid);
}

/** The lock holder in words, for messages: `pid 123 on host-a (since 2026-12-03T06:00:00.000Z)`. */
export function describeOwner(owner: LockOwner | null): string {
  return owner === null
    ? "an unknown process (the lock file holds no owner yet)"
    : `pid ${owner.pid} on ${owner.host} (since ${owner.startedAt})`;
}
