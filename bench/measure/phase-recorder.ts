/** One build or save phase as progress events showed it, in ms from the start of the step. */
export interface PhaseTiming {
  phase: string;
  /** Time of the phase's first event. */
  firstMs: number;
  /** Time of the phase's last event. */
  lastMs: number;
  /**
   * From the previous phase's last event (the start, for the first phase) to this phase's last
   * event: a phase whose first event only comes after its first piece of work (embedding reports
   * after each batch) still gets that work. The durations add up to the last event's time.
   */
  durationMs: number;
  events: number;
}

/** Collects progress events into phase timings. */
export interface PhaseRecorder {
  /** Pass as (or call from) `onProgress`. */
  record(event: { phase: string }): void;
  /** The phases in the order they first appeared. */
  phases(): PhaseTiming[];
}

/**
 * Times phases by their first and last progress event, whatever phases arrive (the library's set
 * may grow). `now` is injectable for tests.
 */
export function createPhaseRecorder(start: number, now: () => number = () => performance.now()): PhaseRecorder {
  const seen = new Map<string, { firstMs: number; lastMs: number; events: number }>();
  return {
    record({ phase }) {
      const at = now() - start;
      const timing = seen.get(phase);
      if (timing) {
        timing.lastMs = at;
        timing.events++;
      } else {
        seen.set(phase, { firstMs: at, lastMs: at, events: 1 });
      }
    },
    phases() {
      let boundary = 0;
      return [...seen].map(([phase, { firstMs, lastMs, events }]) => {
        const durationMs = Math.max(0, lastMs - Math.min(boundary, firstMs));
        boundary = Math.max(boundary, lastMs);
        return { phase, firstMs, lastMs, durationMs, events };
      });
    },
  };
}
