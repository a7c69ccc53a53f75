import { watch, type FSWatcher } from "node:fs";
import { relative, resolve, sep } from "node:path";
import { errorDetail } from "../errors.js";
import { usageError } from "./command-spec.js";
import { createDebouncedRuns } from "./debounced-runs.js";

/** Quiet time after the last corpus change before an update runs. */
export const WATCH_DEBOUNCE_MS = 300;

/** Options of {@link watchCorpus}. */
export interface WatchCorpusOptions {
  corpus: string;
  out: string;
  log: (line: string) => void;
  /** One incremental index run (`indexOnce`): what each batch of changes runs. */
  update: () => Promise<void>;
  /** Resolves (with a reason) when watching should end; the update in progress finishes first. */
  stop: Promise<string>;
  /** @default WATCH_DEBOUNCE_MS */
  debounceMs?: number;
  /** Called after each update run, failed or not (tests wait on it). @default a no-op */
  onRun?: (ok: boolean) => void;
}

/** True when `changed` (relative to the corpus) is inside the index folder: its own saves are no corpus change. */
function insideIndex(corpus: string, out: string, changed: string | null): boolean {
  if (changed === null) return false;
  const rel = relative(resolve(out), resolve(corpus, changed));
  return rel === "" || (!rel.startsWith("..") && !rel.startsWith(sep));
}

/**
 * Watches the corpus folder (recursively) and runs an incremental `index` per batch of changes.
 * Bad files are the update's reported skips; a failed update is logged and watching goes on.
 * @throws LookupKnowledgeError `USAGE` when the folder cannot be watched.
 */
export async function watchCorpus({
  corpus,
  out,
  log,
  update,
  stop,
  debounceMs = WATCH_DEBOUNCE_MS,
  onRun,
}: WatchCorpusOptions): Promise<void> {
  const runs = createDebouncedRuns({
    debounceMs,
    run: async () => {
      let ok = true;
      try {
        await update();
      } catch (error) {
        ok = false;
        log(`lookup-knowledge: the update failed, watching on: ${errorDetail(error)}`);
      }
      onRun?.(ok);
    },
  });
  let watcher: FSWatcher;
  try {
    watcher = watch(corpus, { recursive: true }, (_event, name) => {
      if (!insideIndex(corpus, out, typeof name === "string" ? name : null)) runs.notify();
    });
  } catch (error) {
    throw usageError("index", `--watch cannot watch ${corpus} (${errorDetail(error)}).`);
  }
  watcher.on("error", (error) =>
    log(`lookup-knowledge: watching ${corpus} failed (${errorDetail(error)}); restart \`index --watch\`.`),
  );
  log(`lookup-knowledge: watching ${corpus} for changes (Ctrl-C stops)`);
  const reason = await stop;
  watcher.close();
  await runs.stop();
  log(`lookup-knowledge: ${reason}: stopped watching ${corpus}`);
}
