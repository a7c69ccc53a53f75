/** One query as every system gets it: its text and, for the raw vector engine, its embedding. */
export interface BenchQuery {
  /** Position in the query list. */
  index: number;
  text: string;
  /** The query's LSA embedding, computed once beforehand so a raw engine times the engine alone. */
  vector: number[];
}

/**
 * What a system is in the comparison: a `floor` (framework or raw engine cost nobody can go
 * below), `ours` (the tool), a `stage` of ours timed alone, or a `baseline` to compare against.
 */
export type SystemRole = "floor" | "ours" | "stage" | "baseline";

/** A system under test: one call answers one query. */
export interface BenchSystem {
  /** Stable snake_case id used in the JSON. */
  id: string;
  /** Name for tables and charts. */
  label: string;
  role: SystemRole;
  /** Answers one query; the time of this call is the measurement. */
  run(query: BenchQuery): unknown;
}

/** A system and what it cost to set up (index builds the bench does itself). */
export interface PreparedSystem {
  system: BenchSystem;
  setupMs: number;
}

/** Milliseconds `work` takes, with its result. */
export async function timed<T>(work: () => T | Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}
