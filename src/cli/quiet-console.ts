/** The console methods a dependency may print through. */
const METHODS = ["error", "warn", "log", "info", "debug", "trace"] as const;

let depth = 0;
let saved: Pick<Console, (typeof METHODS)[number]> | undefined;

/**
 * Runs `run` with the console silenced, then restores it (also when `run` throws; nested calls
 * restore it once the outermost ends). The CLI itself writes through its own streams, never the
 * console; what silencing stops is a dependency's own printing: LangChain's `PGVectorStore.addVectors`
 * hands a failed insert's error, stack and all, to `console.error` before it throws it, and that
 * error reaches the user as the one line of the `LookupKnowledgeError` that wraps it.
 */
export async function withConsoleSilenced<T>(run: () => Promise<T>): Promise<T> {
  if (depth === 0) {
    // The methods are kept as they are, to be put back unchanged.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    saved = Object.fromEntries(METHODS.map((name) => [name, console[name]])) as typeof saved;
    for (const name of METHODS) console[name] = () => {};
  }
  depth += 1;
  try {
    return await run();
  } finally {
    depth -= 1;
    if (depth === 0 && saved !== undefined) {
      Object.assign(console, saved);
      saved = undefined;
    }
  }
}
