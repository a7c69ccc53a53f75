import { LookupKnowledgeError } from "../errors.js";

/**
 * Lookups one caller (a bearer token, or the stdio client) may have running at once, by default:
 * one, since lookups on the in-process engines share one event loop, so that a second one running
 * for the same caller adds no throughput and only slows every other caller's lookups.
 */
export const DEFAULT_MAX_CALLS_IN_FLIGHT = 1;
/** Lookups one caller may have waiting for a turn, beyond those running, by default. */
export const DEFAULT_MAX_QUEUED_CALLS = 64;
/** Seconds a caller refused for having too many calls is told to wait before retrying. */
export const TOO_MANY_CALLS_RETRY_SECONDS = 1;
/** The JSON-RPC error code of a call refused because its caller has too many calls in flight and queued. */
export const TOO_MANY_CALLS_RPC_CODE = -32029;

/** Options of {@link createCallLane}: one caller's fair share of the server. */
export interface CallLaneOptions {
  /** Calls of this caller running at once; further ones wait in the queue. @default 1 ({@link DEFAULT_MAX_CALLS_IN_FLIGHT}) */
  maxInFlight?: number;
  /** Calls of this caller waiting for a turn; one more is refused at once. @default 64 ({@link DEFAULT_MAX_QUEUED_CALLS}) */
  maxQueued?: number;
  /**
   * Runs `next` on a later turn of the event loop, so that a queued call starts only after what
   * other callers have waiting (their requests, their calls) had a turn. Injected for tests.
   * @default setImmediate
   */
  defer?: (next: () => void) => void;
}

/** One caller's calls: at most `maxInFlight` running, at most `maxQueued` waiting, the rest refused. */
export interface CallLane {
  /**
   * Runs `task` now if the caller has a free slot, else once its earlier calls have made room.
   * @throws LookupKnowledgeError `TOO_MANY_CALLS` (as a rejection, at once) when the queue is full.
   */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** The lane's bounds, resolved. */
  readonly limits: { maxInFlight: number; maxQueued: number };
  /** Calls this caller can still send before one is refused. */
  readonly room: number;
  /** Calls running now. */
  readonly running: number;
  /** Calls waiting for a turn. */
  readonly queued: number;
}

/** The bounds of a call lane, checked (pure). @throws LookupKnowledgeError `INVALID_OPTION` for a value that is not a positive integer (0 for `maxQueued`). */
export function resolveCallLaneBounds(options: Pick<CallLaneOptions, "maxInFlight" | "maxQueued">): {
  maxInFlight: number;
  maxQueued: number;
} {
  const check = (name: string, value: number | undefined, fallback: number, least: number) => {
    if (value === undefined) return fallback;
    if (Number.isInteger(value) && value >= least) return value;
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `option ${name} must be an integer of at least ${least}, got ${String(value)}.`,
    );
  };
  return {
    maxInFlight: check("maxInFlight", options.maxInFlight, DEFAULT_MAX_CALLS_IN_FLIGHT, 1),
    maxQueued: check("maxQueued", options.maxQueued, DEFAULT_MAX_QUEUED_CALLS, 0),
  };
}

/** The error of a call over its caller's bound: what the bound is and when to retry. */
export function tooManyCalls(maxInFlight: number, maxQueued: number): LookupKnowledgeError {
  return new LookupKnowledgeError(
    "TOO_MANY_CALLS",
    `too many calls from this caller (at most ${maxInFlight} running and ${maxQueued} queued); retry after ${TOO_MANY_CALLS_RETRY_SECONDS} s, or send fewer calls at once.`,
  );
}

/**
 * Rethrows a {@link tooManyCalls} refusal as the JSON-RPC error the MCP SDK answers with: code
 * {@link TOO_MANY_CALLS_RPC_CODE}, one line, `data.retryAfterSeconds`; anything else as it is.
 */
export function asTooManyCallsAnswer(error: unknown): never {
  if (error instanceof LookupKnowledgeError && error.code === "TOO_MANY_CALLS")
    throw Object.assign(new Error(`${error.code}: ${error.message}`), {
      code: TOO_MANY_CALLS_RPC_CODE,
      data: { retryAfterSeconds: TOO_MANY_CALLS_RETRY_SECONDS },
    });
  throw error;
}

interface Waiting {
  start(): void;
}

/**
 * A caller's fair share: its calls start in the order they came, at most `maxInFlight` at once;
 * when one ends, the next waiting call starts on a later turn (`defer`), so that a caller with a
 * long queue hands the event loop to every other caller between two of its calls.
 */
export function createCallLane(options: CallLaneOptions = {}): CallLane {
  const { maxInFlight, maxQueued } = resolveCallLaneBounds(options);
  const defer = options.defer ?? ((next: () => void) => void setImmediate(next));
  // A slot is taken from the moment a call is handed it, deferred start included, so that no
  // newcomer overtakes the queue.
  let running = 0;
  const queue: Waiting[] = [];
  const finished = () => {
    const next = queue.shift();
    if (next === undefined) running -= 1;
    else defer(() => next.start());
  };
  return {
    limits: { maxInFlight, maxQueued },
    run<T>(task: () => Promise<T>): Promise<T> {
      if (running >= maxInFlight && queue.length >= maxQueued)
        return Promise.reject(tooManyCalls(maxInFlight, maxQueued));
      return new Promise<T>((resolve, reject) => {
        const start = () => {
          let work: Promise<T>;
          try {
            work = task();
          } catch (error) {
            work = Promise.reject(error instanceof Error ? error : new Error(String(error)));
          }
          work.then(resolve, reject).finally(finished);
        };
        if (running < maxInFlight) {
          running += 1;
          start();
        } else queue.push({ start });
      });
    },
    get room() {
      return Math.max(0, maxInFlight - running) + Math.max(0, maxQueued - queue.length);
    },
    get running() {
      return running;
    },
    get queued() {
      return queue.length;
    },
  };
}
