import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDebouncedRuns } from "../../src/cli/debounced-runs.js";

describe("createDebouncedRuns", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("turns a burst of changes into one run once they stop", async () => {
    const run = vi.fn(async () => {});
    const runs = createDebouncedRuns({ debounceMs: 100, run });
    for (let i = 0; i < 5; i++) {
      runs.notify();
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    expect(run).toHaveBeenCalledTimes(1);
    await runs.stop();
  });

  it("runs exactly once more after a run that changes arrived during, and never overlaps runs", async () => {
    let active = 0;
    let most = 0;
    let release: () => void = () => {};
    const run = vi.fn(async () => {
      active++;
      most = Math.max(most, active);
      await new Promise<void>((done) => (release = done));
      active--;
    });
    const runs = createDebouncedRuns({ debounceMs: 10, run });
    runs.notify();
    await vi.advanceTimersByTimeAsync(10);
    expect(run).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 3; i++) {
      runs.notify();
      await vi.advanceTimersByTimeAsync(20);
    }
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(2);
    release();
    await vi.advanceTimersByTimeAsync(50);
    expect(run).toHaveBeenCalledTimes(2);
    expect(most).toBe(1);
    await runs.stop();
  });

  it("waits for the run in progress on stop and starts none after", async () => {
    let finished = false;
    const run = vi.fn(async () => {
      await new Promise((done) => setTimeout(done, 30));
      finished = true;
    });
    const runs = createDebouncedRuns({ debounceMs: 10, run });
    runs.notify();
    await vi.advanceTimersByTimeAsync(10);
    const stopped = runs.stop();
    runs.notify();
    await vi.advanceTimersByTimeAsync(30);
    await stopped;
    expect(finished).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
