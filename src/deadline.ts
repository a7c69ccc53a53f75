/** Bounds how long a call to an outside service (embeddings, a vector store) may take. */

/** Settings of {@link withDeadline}. */
export interface DeadlineOptions {
  /** Milliseconds before the call is given up; `0` or `Infinity` waits forever. */
  timeoutMs: number;
  /** A caller's signal (e.g. the agent run's): when it aborts, so does the call. @default none */
  signal?: AbortSignal;
  /** The error the call fails with when the time is up. */
  onTimeout: () => Error;
}

/**
 * Runs `call` with a signal that aborts when `timeoutMs` passes or the caller's signal aborts,
 * and stops waiting at that moment even when `call` ignores the signal. A result or rejection
 * that arrives later is dropped, so it can neither surface as an unhandled rejection nor be used.
 */
export async function withDeadline<T>(call: (signal: AbortSignal) => Promise<T>, options: DeadlineOptions): Promise<T> {
  const controller = new AbortController();
  const abort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) abort();
  options.signal?.addEventListener("abort", abort, { once: true });
  const limited = options.timeoutMs > 0 && Number.isFinite(options.timeoutMs);
  let timer: NodeJS.Timeout | undefined;
  try {
    const pending = Promise.resolve().then(() => call(controller.signal));
    pending.catch(() => {});
    const stop = new Promise<never>((_, reject) => {
      // The caller's own abort reason is passed through as it is, Error or not.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      const fail = () => reject(controller.signal.reason);
      if (controller.signal.aborted) fail();
      controller.signal.addEventListener("abort", fail, { once: true });
      if (limited) timer = setTimeout(() => controller.abort(options.onTimeout()), options.timeoutMs);
    });
    return await Promise.race([pending, stop]);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", abort);
  }
}
