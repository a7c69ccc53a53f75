import { describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import {
  asTooManyCallsAnswer,
  createCallLane,
  DEFAULT_MAX_CALLS_IN_FLIGHT,
  DEFAULT_MAX_QUEUED_CALLS,
  resolveCallLaneBounds,
  TOO_MANY_CALLS_RPC_CODE,
} from "../../src/mcp/call-lane.js";

/** A deferral the test runs by hand, so that each turn of the loop is visible. */
function manualDefer() {
  const turns: (() => void)[] = [];
  return {
    defer: (next: () => void) => void turns.push(next),
    get pending() {
      return turns.length;
    },
    runOne: () => turns.shift()?.(),
  };
}

/** A task that ends when the test says so, recording when it started. */
function gate(log: string[], name: string) {
  let open!: () => void;
  const done = new Promise<void>((resolve) => (open = resolve));
  return {
    task: () => {
      log.push(name);
      return done.then(() => name);
    },
    open: () => open(),
  };
}

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe("createCallLane", () => {
  it("applies the documented defaults and refuses bounds that are not whole numbers", () => {
    expect(resolveCallLaneBounds({})).toEqual({
      maxInFlight: DEFAULT_MAX_CALLS_IN_FLIGHT,
      maxQueued: DEFAULT_MAX_QUEUED_CALLS,
    });
    expect(resolveCallLaneBounds({ maxInFlight: 1, maxQueued: 0 })).toEqual({ maxInFlight: 1, maxQueued: 0 });
    expect(() => resolveCallLaneBounds({ maxInFlight: 0 })).toThrow(/maxInFlight must be an integer of at least 1/);
    expect(() => resolveCallLaneBounds({ maxQueued: 1.5 })).toThrow(LookupKnowledgeError);
  });

  it("runs up to maxInFlight calls at once and queues the rest in order", async () => {
    const { defer } = manualDefer();
    const lane = createCallLane({ maxInFlight: 2, maxQueued: 5, defer });
    const log: string[] = [];
    const gates = ["a", "b", "c", "d"].map((name) => gate(log, name));
    for (const each of gates) void lane.run(each.task);
    expect(log).toEqual(["a", "b"]);
    expect([lane.running, lane.queued, lane.room]).toEqual([2, 2, 3]);
  });

  it("starts a queued call only on a later turn, so other callers go between two calls of one caller", async () => {
    const turns = manualDefer();
    const lane = createCallLane({ maxInFlight: 1, maxQueued: 5, defer: turns.defer });
    const log: string[] = [];
    const first = gate(log, "first");
    const second = gate(log, "second");
    const answers = [lane.run(first.task), lane.run(second.task)];
    first.open();
    await expect(answers[0]).resolves.toBe("first");
    await settle();
    expect(log).toEqual(["first"]);
    expect(turns.pending).toBe(1);
    // The slot stays taken while the next call waits for its turn: a newcomer queues behind it.
    void lane.run(gate(log, "newcomer").task);
    expect(lane.queued).toBe(1);
    turns.runOne();
    expect(log).toEqual(["first", "second"]);
    second.open();
    await expect(answers[1]).resolves.toBe("second");
  });

  it("refuses a call past the queue at once with TOO_MANY_CALLS, and takes calls again once there is room", async () => {
    const turns = manualDefer();
    const lane = createCallLane({ maxInFlight: 1, maxQueued: 1, defer: turns.defer });
    const log: string[] = [];
    const running = gate(log, "running");
    const answers = [lane.run(running.task), lane.run(gate(log, "queued").task)];
    expect(lane.room).toBe(0);
    const refused = lane.run(gate(log, "refused").task);
    await expect(refused).rejects.toMatchObject({ code: "TOO_MANY_CALLS" });
    await expect(refused).rejects.toThrow(/at most 1 running and 1 queued\); retry after 1 s/);
    expect(log).toEqual(["running"]);
    running.open();
    await answers[0];
    await settle();
    turns.runOne();
    expect(lane.room).toBe(1);
    expect(log).toEqual(["running", "queued"]);
  });

  it("frees the slot of a call that throws or rejects", async () => {
    const lane = createCallLane({ maxInFlight: 1, maxQueued: 0, defer: (next) => next() });
    await expect(lane.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(
      lane.run(() => {
        throw new Error("sync boom");
      }),
    ).rejects.toThrow("sync boom");
    await expect(lane.run(() => Promise.resolve("after"))).resolves.toBe("after");
    expect([lane.running, lane.queued]).toEqual([0, 0]);
  });
});

describe("asTooManyCallsAnswer", () => {
  it("turns a refusal into a one-line JSON-RPC error with its code and when to retry, and leaves other errors as they are", async () => {
    const lane = createCallLane({ maxInFlight: 1, maxQueued: 0 });
    void lane.run(() => new Promise(() => undefined));
    const answer = await lane
      .run(() => Promise.resolve())
      .catch((error: unknown) => {
        try {
          asTooManyCallsAnswer(error);
        } catch (rpc) {
          return rpc;
        }
      });
    expect(answer).toMatchObject({ code: TOO_MANY_CALLS_RPC_CODE, data: { retryAfterSeconds: 1 } });
    expect(String((answer as Error).message)).toMatch(/^TOO_MANY_CALLS: lookup-knowledge: too many calls[^\n]+$/);
    const other = new Error("other");
    expect(() => asTooManyCallsAnswer(other)).toThrow(other);
  });
});
