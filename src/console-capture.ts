import { AsyncLocalStorage } from "node:async_hooks";
import { format } from "node:util";

/** The console methods a dependency may print through. */
const METHODS = ["error", "warn", "log", "info", "debug", "trace"] as const;
type Method = (typeof METHODS)[number];

/** Where the console calls made inside a {@link captureConsole} run go: its `onLine`. */
const capturing = new AsyncLocalStorage<(line: string) => void>();

let depth = 0;
/** Per method, what it was before a run wrapped it, and the wrapper put in its place. */
const installed = new Map<Method, { saved: Console[Method]; wrapper: Console[Method] }>();

/** The first line of what `console.log(...args)` would print. */
export function printedLine(args: readonly unknown[]): string {
  return format(...args).split("\n", 1)[0];
}

/** Wraps each method that is not wrapped already (the app may have replaced one during a run). */
function install(): void {
  for (const name of METHODS) {
    if (installed.get(name)?.wrapper === console[name]) continue;
    // The method is kept as it is, to be called and put back unchanged.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const saved = console[name];
    const wrapper = (...args: unknown[]) => {
      const onLine = capturing.getStore();
      if (onLine === undefined) saved.apply(console, args);
      else onLine(printedLine(args));
    };
    installed.set(name, { saved, wrapper });
    console[name] = wrapper;
  }
}

function uninstall(): void {
  // A method the app replaced meanwhile (a spy, a logger) is its own: only ours are put back.
  for (const [name, { saved, wrapper }] of installed) if (console[name] === wrapper) console[name] = saved;
  installed.clear();
}

/**
 * Runs `run`, handing each console call made inside it (its own code and everything it awaits,
 * however deep in a dependency) to `onLine` as the first line of what the call would print,
 * instead of printing it. Console calls made meanwhile outside the run (the app's own, on other
 * requests) print as before. The console is restored when the outermost run settles, also when
 * it throws; what `run` leaves running after it settled prints as it would have. For the dependencies that print on a path of ours: LangChain's
 * `PGVectorStore.addVectors` hands a failed insert's error, stack and all, to `console.error`
 * before it throws it.
 * @example
 * const printed: string[] = [];
 * await captureConsole(() => store.addVectors(vectors, docs), (line) => printed.push(line));
 */
export async function captureConsole<T>(run: () => Promise<T>, onLine: (line: string) => void): Promise<T> {
  install();
  depth += 1;
  try {
    return await capturing.run(onLine, run);
  } finally {
    depth -= 1;
    if (depth === 0) uninstall();
  }
}
