/** Stage durations: the one clock the graph's timings read. */

/** A reading of the monotonic clock, in milliseconds. */
export const clock = (): number => performance.now();

/**
 * Milliseconds from `start` (a {@link clock} reading) to `end`, never negative and always finite:
 * a start that came from elsewhere (a parent's state, another process) reads as 0, not as
 * nonsense.
 */
export function elapsedMs(start: number, end: number = clock()): number {
  const ms = end - start;
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
}
