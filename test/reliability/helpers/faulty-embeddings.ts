/**
 * Embeddings that fail in the ways a network embedding service does: they throw, hang, answer
 * late, or return garbage. A real LangChain `Embeddings` subclass, so the library sees exactly
 * what a user's embeddings would hand it.
 */
import { SyntheticEmbeddings } from "@langchain/core/utils/testing";

/** Length of the vectors the healthy embeddings return. */
export const DIMENSIONS = 16;

const GARBAGE_VALUES: Record<string, () => unknown> = {
  nulls: () => Array(DIMENSIONS).fill(null),
  undefineds: () => Array(DIMENSIONS).fill(undefined),
  "numeric strings": () => Array.from({ length: DIMENSIONS }, (_, i) => String(i / 10)),
  "one null among numbers": () => Array.from({ length: DIMENSIONS }, (_, i) => (i === 7 ? null : 0.1)),
  "one string among numbers": () => Array.from({ length: DIMENSIONS }, (_, i) => (i === 3 ? "0.2" : 0.1)),
  "NaN everywhere": () => Array(DIMENSIONS).fill(Number.NaN),
  "one NaN": () => Array.from({ length: DIMENSIONS }, (_, i) => (i === 0 ? Number.NaN : 0.3)),
  Infinity: () => Array(DIMENSIONS).fill(Number.POSITIVE_INFINITY),
  "minus Infinity once": () => Array.from({ length: DIMENSIONS }, (_, i) => (i === 5 ? Number.NEGATIVE_INFINITY : 0.3)),
  "all zeros": () => Array(DIMENSIONS).fill(0),
  "one dimension too few": () => Array(DIMENSIONS - 1).fill(0.2),
  "one dimension too many": () => Array(DIMENSIONS + 1).fill(0.2),
  "an empty array": () => [],
  "a sparse array": () => new Array(DIMENSIONS),
  bigints: () => Array.from({ length: DIMENSIONS }, () => 1n),
  booleans: () => Array(DIMENSIONS).fill(true),
  "nested arrays": () => Array.from({ length: DIMENSIONS }, () => [0.1]),
  null: () => null,
  undefined: () => undefined,
  "a string": () => "0.1,0.2,0.3",
  "a number": () => 0.5,
  "an array-like object": () => ({ length: DIMENSIONS, 0: 0.1 }),
  "a Float64Array holding NaN": () => new Float64Array(DIMENSIONS).fill(Number.NaN),
  "a million numbers": () => Array(1_000_000).fill(0.1),
  "a revoked proxy": () => {
    const { proxy, revoke } = Proxy.revocable(Array(DIMENSIONS).fill(0.1), {});
    revoke();
    return proxy;
  },
  "a length getter that throws": () => {
    const vector = Array(DIMENSIONS).fill(0.1);
    return new Proxy(vector, {
      get: (target, key) =>
        key === "length"
          ? (() => {
              throw new Error("boom length");
            })()
          : Reflect.get(target, key),
    });
  },
  "numbers beyond a 32-bit float": () => Array.from({ length: DIMENSIONS }, (_, i) => (i === 0 ? 1e300 : 0)),
  "zeros as 32-bit floats": () => Array.from({ length: DIMENSIONS }, (_, i) => (i === 0 ? 1e-320 : 0)),
};

/** Every kind of garbage vector the faulty embeddings can return. */
export const GARBAGE_VECTORS = Object.keys(GARBAGE_VALUES);

/** How a call misbehaves. */
export type Fault =
  | { kind: "none" }
  | { kind: "garbage"; name: string }
  | { kind: "throw"; error: unknown }
  | { kind: "reject-late"; afterMs: number }
  | { kind: "hang" }
  | { kind: "slow"; afterMs: number }
  | { kind: "typed-array" }
  | { kind: "own-iterator" }
  | { kind: "second-read-differs" };

/** Embeddings whose queries (and, separately, document batches) fail as configured. */
export class FaultyEmbeddings extends SyntheticEmbeddings {
  queryFault: Fault = { kind: "none" };
  /** The fault of each document batch, by batch number (0-based); other batches are healthy. */
  batchFaults = new Map<number, Fault | "one-too-few" | "one-too-many" | "own-map">();
  queryCalls = 0;
  batchCalls = 0;
  /** Signals the library passed to `embedQuery`, to check that a timeout aborts them. */
  readonly signals: (AbortSignal | undefined)[] = [];
  readonly #timers = new Set<NodeJS.Timeout>();

  constructor() {
    super({ vectorSize: DIMENSIONS });
  }

  override async embedQuery(text: string, options?: { signal?: AbortSignal }): Promise<number[]> {
    this.queryCalls++;
    this.signals.push(options?.signal);
    return this.#apply(this.queryFault, () => super.embedQuery(text));
  }

  override async embedDocuments(texts: string[]): Promise<number[][]> {
    const fault = this.batchFaults.get(this.batchCalls++) ?? { kind: "none" };
    if (fault === "one-too-few") return (await super.embedDocuments(texts)).slice(1);
    if (fault === "own-map") {
      const vectors = await super.embedDocuments(texts);
      return Object.assign(vectors, { map: () => texts.map(() => Array(DIMENSIONS).fill(null)) });
    }
    if (fault === "one-too-many")
      return [...(await super.embedDocuments(texts)), (await super.embedDocuments(["extra"]))[0]];
    if (fault.kind === "garbage") {
      const vectors = await super.embedDocuments(texts);
      vectors[vectors.length - 1] = GARBAGE_VALUES[fault.name]() as number[];
      return vectors;
    }
    return this.#apply(fault, () => super.embedDocuments(texts));
  }

  /** Clears the timers of slow calls, so that a test file ends promptly. */
  dispose(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  async #apply<T>(fault: Fault, healthy: () => Promise<T>): Promise<T> {
    switch (fault.kind) {
      case "none":
        return healthy();
      case "garbage":
        return GARBAGE_VALUES[fault.name]() as T;
      case "typed-array":
        return Float32Array.from((await healthy()) as number[]) as unknown as T;
      case "own-iterator": {
        // A usable vector whose own iterator lies: only its elements may count.
        const vector = (await healthy()) as unknown[];
        Object.defineProperty(vector, Symbol.iterator, {
          value: () => Array(vector.length).fill(null)[Symbol.iterator](),
        });
        return vector as T;
      }
      case "second-read-differs": {
        // Numbers on the first read of each element, a string on any later one.
        const vector = (await healthy()) as unknown[];
        const reads = new Set<string>();
        const first = (key: string) => !reads.has(key) && reads.add(key) !== undefined;
        return new Proxy(vector, {
          get: (target, key) =>
            typeof key === "string" && /^\d+$/.test(key) && !first(key) ? "x" : Reflect.get(target, key),
        }) as T;
      }
      case "throw":
        throw fault.error;
      case "reject-late":
        await this.#sleep(fault.afterMs);
        throw new Error("embedding service reset the connection (simulated)");
      case "slow":
        await this.#sleep(fault.afterMs);
        return healthy();
      case "hang":
        return new Promise<T>(() => {});
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        resolve();
      }, ms);
      this.#timers.add(timer);
    });
  }
}
