import type { IndexLock } from "./index-lock.js";

/**
 * Steps of `KnowledgeBase.save`, in order. Before `commit` the folder still holds the previous
 * index; from `commit` on it holds the new one.
 * - `collect`: leftovers of earlier (killed) saves were removed;
 * - `write`: one data file (`file`) of the new generation folder was written and flushed;
 * - `stage`: the new manifest was written inside the generation folder, and both folders flushed;
 * - `commit`: the staged manifest was renamed over `manifest.json`: the new index is live;
 * - `remove`: one leftover (`file`: an old generation, marker or temporary) was removed, before
 *   `collect` or after `commit`;
 * - `cleanup`: every old generation is gone; the save is done.
 */
export type SaveStep = "collect" | "write" | "stage" | "commit" | "remove" | "cleanup";

/** One step of a save; `done` of `total` counts `write`, `stage`, `commit` and `cleanup`, for a progress bar. */
export interface SaveProgress {
  /**
   * Always `"save"`: tells save events from `BuildProgress` ones when one handler takes both (as
   * the CLI's progress bar does).
   */
  phase: "save";
  /** The step just finished. */
  step: SaveStep;
  /** The data file written (`write`) or the entry removed (`remove`). */
  file?: string;
  /** Counted steps finished so far (`write` per data file, `stage`, `commit`, `cleanup`). */
  done: number;
  /** Counted steps of the whole save: the data files plus 3. */
  total: number;
}

/** Options of `KnowledgeBase.save`. */
export interface SaveOptions {
  /**
   * Called after each step of the save. A callback that throws before `commit` abandons the save
   * like a failed write (the previous index stays); after `commit` its error is passed on as is.
   * @default no-op
   */
  onProgress?: (progress: SaveProgress) => void;
  /**
   * Called for each leftover of an earlier save that could not be removed, and when old rows of a
   * vector store that holds L1 could not be deleted after the commit (the save itself succeeds,
   * and the next save tries again).
   * @default ignores them
   */
  onWarning?: (message: string) => void;
  /**
   * How long to wait, in milliseconds, for the folder's writer lock (`.lookup-knowledge.lock`)
   * when another live writer holds it; then the save fails with `INDEX_LOCKED`. Ignored with `lock`.
   * @default 30000
   */
  lockWaitMs?: number;
  /**
   * The folder's writer lock, already held by the caller (`acquireIndexLock(dir)`) around a whole
   * load, update and save; the save then neither takes nor releases it.
   * @default none: the save takes the lock itself and releases it when done
   */
  lock?: IndexLock;
  /**
   * The generation the folder must still have committed for this save to replace it: a save of
   * an update must not replace what another writer committed since its base was loaded. A string
   * is that generation; null saves whatever the folder holds now (an intentional overwrite).
   * @default for a base loaded (or updated from one loaded) from this same folder, the generation
   * it was loaded from or last saved there; null for a base from `build` or `fromChunks`
   */
  startedFrom?: string | null;
}

/** How long `KnowledgeBase.save` waits for another writer's lock unless `lockWaitMs` says otherwise. */
export const DEFAULT_SAVE_LOCK_WAIT_MS = 30_000;
