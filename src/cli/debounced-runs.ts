/** Options of {@link createDebouncedRuns}. */
export interface DebouncedRunsOptions {
  /** Quiet time after the last change before a run starts. */
  debounceMs: number;
  /** One run over every change noticed so far; its errors are the caller's to report (it should not throw). */
  run: () => Promise<void>;
  /** Timers, replaceable in tests. @default globalThis's */
  timers?: { set: (fn: () => void, ms: number) => unknown; clear: (handle: unknown) => void };
}

/** What {@link createDebouncedRuns} returns. */
export interface DebouncedRuns {
  /** Notes a change: a run starts once changes stop for `debounceMs`. */
  notify(): void;
  /** Stops scheduling runs and resolves once the run in progress, if any, has finished. */
  stop(): Promise<void>;
}

/**
 * Batches bursts of changes into runs: a burst (an editor's save writes several events) is one
 * run, changes during a run give exactly one more run after it, and runs never overlap.
 */
export function createDebouncedRuns({ debounceMs, run, timers }: DebouncedRunsOptions): DebouncedRuns {
  const set = timers?.set ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const clear = timers?.clear ?? ((handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  let timer: unknown = null;
  let running: Promise<void> | null = null;
  let pending = false;
  let stopped = false;

  const start = (): void => {
    timer = null;
    if (stopped) return;
    if (running !== null) {
      pending = true;
      return;
    }
    pending = false;
    running = run().finally(() => {
      running = null;
      if (pending && !stopped) start();
    });
  };
  return {
    notify() {
      if (stopped) return;
      if (timer !== null) clear(timer);
      timer = set(start, debounceMs);
    },
    async stop() {
      stopped = true;
      if (timer !== null) clear(timer);
      timer = null;
      await running;
    },
  };
}
