/**
 * Which store rows a save keeps for replicas still serving an earlier commit
 * (`VectorStoreL1Option.keepGenerations`): pure bookkeeping over row ids, no store calls.
 */

/** The rows one earlier commit reads that later ones do not, kept until it falls out of the window. */
export interface RetainedRows {
  /** The store generation (`lk_gen`) of that commit's rows. */
  generation: string;
  /**
   * Rows of that generation the commit reads and the commits after it no longer do (chunks an
   * update changed or removed); empty when a later commit started a new generation (then the
   * whole generation is kept).
   */
  pendingDeletes: string[];
}

/** The commit an index's rows derive from, as its manifest records it. */
export interface CommittedRows {
  generation: string;
  /** Updates since the generation's full build (`lk_rev` of the rows it added); null for rows written before revisions were recorded. */
  revision: number | null;
  /** Earlier commits still kept, newest first. */
  retained: RetainedRows[];
}

/** The state about to be committed. */
export interface RowsToCommit {
  generation: string;
  revision: number | null;
  /** Rows a failed or unconfirmed prune left: deleted at this save. */
  pendingDeletes: readonly string[];
  /** Rows of the base commit's generation it reads and this state does not. */
  removed: readonly string[];
  /** Row ids this state reads. */
  current: ReadonlySet<string>;
}

/** What a save records and deletes. */
export interface RetentionPlan {
  /** The manifest's `vectorStore.retained`. */
  retained: RetainedRows[];
  /** Rows deleted once the save commits (also the manifest's `pendingDeletes`, so a failed prune is retried). */
  deleteNow: string[];
  /** Generations whose rows stay: the committed one and the retained ones'. */
  keepGenerations: string[];
}

/**
 * The retention after committing `next` on top of `base` (null: nothing known to be served),
 * keeping the `keep` most recent earlier commits. Row ids `next` reads are never deleted nor listed
 * (a chunk changed back to an earlier text has its earlier row again).
 */
export function planRetention(base: CommittedRows | null, next: RowsToCommit, keep: number): RetentionPlan {
  const unread = (ids: readonly string[]) => ids.filter((id) => !next.current.has(id));
  const entries: RetainedRows[] = [];
  const unchanged =
    base !== null &&
    base.generation === next.generation &&
    base.revision === next.revision &&
    next.removed.length === 0;
  if (base !== null && !unchanged)
    entries.push({
      generation: base.generation,
      pendingDeletes: base.generation === next.generation ? [...next.removed] : [],
    });
  entries.push(...(base?.retained ?? []));
  const cleaned = entries.map((entry) => ({
    generation: entry.generation,
    pendingDeletes: unread(entry.pendingDeletes),
  }));
  const retained = cleaned.slice(0, keep);
  const dropped = cleaned.slice(keep).flatMap((entry) => entry.pendingDeletes);
  // Rows no kept commit reads (none kept, or never committed) go now.
  const removedNow = keep === 0 || base === null || base.generation !== next.generation ? next.removed : [];
  const deleteNow = unread([...new Set([...next.pendingDeletes, ...removedNow, ...dropped])]);
  const keepGenerations = [...new Set([next.generation, ...retained.map((entry) => entry.generation)])];
  return { retained, deleteNow, keepGenerations };
}

/**
 * Rows of `generation` a reader on it must skip: those kept for earlier commits and those still to
 * be deleted, which its own chunks no longer read.
 */
export function foreignRowIds(
  generation: string,
  retained: readonly RetainedRows[],
  ...lists: (readonly string[])[]
): string[] {
  const same = retained.filter((entry) => entry.generation === generation).flatMap((entry) => entry.pendingDeletes);
  return [...new Set([...same, ...lists.flat()])];
}
