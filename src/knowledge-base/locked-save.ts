import { resolve } from "node:path";
import { LookupKnowledgeError } from "../errors.js";
import { committedGeneration } from "./index-folder.js";
import { acquireIndexLock } from "./index-lock.js";
import { DEFAULT_SAVE_LOCK_WAIT_MS, type SaveOptions } from "./save-options.js";

/** The folder a knowledge base was loaded from (or last saved into) and the generation committed there then. */
export interface SavedOrigin {
  /** The folder, as an absolute path. */
  dir: string;
  generation: string;
}

/** The origin a base has after a load from `dir` that read `generation`; null for none. */
export function originOf(dir: string, generation: string | null | undefined): SavedOrigin | null {
  return generation ? { dir: resolve(dir), generation } : null;
}

/** The generation `dir` must still commit for a save: the option's, else the base's own when it came from `dir`. */
export function expectedGeneration(
  dir: string,
  origin: SavedOrigin | null,
  startedFrom: string | null | undefined,
): string | null {
  if (startedFrom !== undefined) return startedFrom;
  return origin !== null && origin.dir === resolve(dir) ? origin.generation : null;
}

/**
 * Runs `write` (a save into `dir`, returning the generation it committed) under the folder's writer
 * lock: the caller's (`options.lock`) or one taken for it. Before writing, the committed
 * generation is checked to still be `expected` (when not null). Returns the new origin.
 * @throws LookupKnowledgeError `INDEX_LOCKED` when another writer holds the lock past
 * `lockWaitMs`; `INDEX_CHANGED` when another writer committed since; `INVALID_OPTION` for a lock
 * of another folder; what `write` throws.
 */
export async function saveLocked(
  dir: string,
  options: SaveOptions,
  expected: string | null,
  write: (options: SaveOptions) => Promise<string>,
): Promise<SavedOrigin> {
  const given = options.lock;
  if (given !== undefined && resolve(given.dir) !== resolve(dir)) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `the save's lock is the one of "${given.dir}", not of "${dir}"; pass acquireIndexLock("${dir}").`,
    );
  }
  const lock = given ?? (await acquireIndexLock(dir, { waitMs: options.lockWaitMs ?? DEFAULT_SAVE_LOCK_WAIT_MS }));
  try {
    if (expected !== null) {
      const now = await committedGeneration(dir);
      if (now !== expected) {
        const what =
          now === null
            ? "no index any more"
            : now === undefined
              ? "a manifest that cannot be read"
              : `generation ${now}`;
        throw new LookupKnowledgeError(
          "INDEX_CHANGED",
          `not saving into "${dir}": this knowledge base was loaded from generation ${expected}, and the folder now holds ${what}: another writer committed meanwhile. Load the index again and run the update again (\`lookup-knowledge index\`), or pass \`startedFrom: null\` to overwrite it.`,
        );
      }
    }
    const generation = await write({ ...options, lock });
    return { dir: resolve(dir), generation };
  } finally {
    if (given === undefined) await lock.release();
  }
}
