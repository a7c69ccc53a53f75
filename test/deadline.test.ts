import { describe, expect, it } from "vitest";
import { withDeadline } from "../src/deadline.js";

const timeoutError = () => new Error("too slow");

describe("withDeadline", () => {
  it("returns the call's result when it answers in time", async () => {
    await expect(withDeadline(async () => 42, { timeoutMs: 1000, onTimeout: timeoutError })).resolves.toBe(42);
  });

  it("passes on the call's own rejection", async () => {
    await expect(
      withDeadline(async () => Promise.reject(new Error("503")), { timeoutMs: 1000, onTimeout: timeoutError }),
    ).rejects.toThrow("503");
  });

  it("gives up on a call that never settles and aborts the signal it handed over", async () => {
    let seen: AbortSignal | undefined;
    const never = (signal: AbortSignal) => {
      seen = signal;
      return new Promise<never>(() => {});
    };
    await expect(withDeadline(never, { timeoutMs: 10, onTimeout: timeoutError })).rejects.toThrow("too slow");
    expect(seen?.aborted).toBe(true);
  });

  it("stops waiting as soon as the caller's signal aborts, with the caller's reason", async () => {
    const caller = new AbortController();
    const pending = withDeadline(() => new Promise<never>(() => {}), {
      timeoutMs: 0,
      signal: caller.signal,
      onTimeout: timeoutError,
    });
    caller.abort(new Error("run cancelled"));
    await expect(pending).rejects.toThrow("run cancelled");
  });

  it("does not start waiting at all when the caller's signal has already aborted", async () => {
    const caller = new AbortController();
    caller.abort(new Error("cancelled before"));
    await expect(
      withDeadline(async () => 1, { timeoutMs: 0, signal: caller.signal, onTimeout: timeoutError }),
    ).rejects.toThrow("cancelled before");
  });

  it("drops a rejection that arrives after the deadline instead of leaving it unhandled", async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", record);
    try {
      const late = () => new Promise<never>((_, reject) => setTimeout(() => reject(new Error("late")), 30));
      await expect(withDeadline(late, { timeoutMs: 5, onTimeout: timeoutError })).rejects.toThrow("too slow");
      await new Promise((resolve) => setTimeout(resolve, 60));
    } finally {
      process.off("unhandledRejection", record);
    }
    expect(unhandled).toEqual([]);
  });

  it("turns a synchronous throw of the call into a rejection", async () => {
    const call = () => {
      throw new Error("sync");
    };
    await expect(withDeadline(call, { timeoutMs: 100, onTimeout: timeoutError })).rejects.toThrow("sync");
  });
});
