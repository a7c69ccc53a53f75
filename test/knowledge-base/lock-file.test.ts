import { describe, expect, it } from "vitest";
import {
  describeOwner,
  formatLockFile,
  isStaleLock,
  parseLockFile,
  UNREADABLE_LOCK_GRACE_MS,
  type LockOwner,
} from "../../src/knowledge-base/lock-file.js";

const owner: LockOwner = {
  pid: 4321,
  host: "host-a",
  startedAt: "2026-12-03T06:00:00.000Z",
  token: "0123456789abcdef",
};
const judge = (alive: boolean, ageMs = 0) => ({ host: "host-a", alive: () => alive, ageMs });

describe("the writer lock file", () => {
  it("reads back the owner it was written with", () => {
    expect(parseLockFile(formatLockFile(owner))).toEqual(owner);
  });

  it("reads a record without a token as an owner with an empty token", () => {
    expect(parseLockFile(JSON.stringify({ pid: 7, host: "h", startedAt: "t" }))).toEqual({
      pid: 7,
      host: "h",
      startedAt: "t",
      token: "",
    });
  });

  it.each([
    "",
    "{",
    "null",
    "[]",
    '{"pid":"7","host":"h","startedAt":"t"}',
    '{"pid":0,"host":"h","startedAt":"t"}',
    '{"pid":1.5,"host":"h","startedAt":"t"}',
    '{"pid":7,"startedAt":"t"}',
  ])("finds no owner in %j", (text) => {
    expect(parseLockFile(text)).toBeNull();
  });

  it("takes over the lock of a process of this host that is gone", () => {
    expect(isStaleLock(owner, judge(false))).toBe(true);
  });

  it("never takes over the lock of a live process", () => {
    expect(isStaleLock(owner, judge(true, 10 * UNREADABLE_LOCK_GRACE_MS))).toBe(false);
  });

  it("never takes over the lock of another host, whose processes cannot be checked from here", () => {
    expect(isStaleLock({ ...owner, host: "host-b" }, judge(false))).toBe(false);
  });

  it("takes over a lock file without an owner only once it is older than the grace period", () => {
    expect(isStaleLock(null, judge(false, UNREADABLE_LOCK_GRACE_MS - 1))).toBe(false);
    expect(isStaleLock(null, judge(false, UNREADABLE_LOCK_GRACE_MS + 1))).toBe(true);
  });

  it("names the pid and the host of the holder in messages", () => {
    expect(describeOwner(owner)).toBe("pid 4321 on host-a (since 2026-12-03T06:00:00.000Z)");
  });
});
