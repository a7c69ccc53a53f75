/**
 * The one error the benchmark raises on purpose: a missing dataset, a bad flag, a child that
 * failed or timed out, an API the library does not offer yet. Its message is one line, prefixed
 * with `bench:`, that says what to do.
 */
export class BenchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message.startsWith("bench:") ? message : `bench: ${message}`, options);
    this.name = "BenchError";
  }
}

/** `error.message` for errors, the value as text otherwise. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
