import type { IndexParts, VectorStorePart } from "./index-parts.js";
import { readManifest } from "./index-files.js";
import type { IndexManifest } from "./manifest.js";
import { planRetention, type CommittedRows, type RetentionPlan } from "./row-retention.js";
import { limitsOf, type WriteOptions } from "./vector-store-l1-parts.js";
import { pruneRows, rowIdOf } from "./vector-store-rows.js";

/** The commit the index in `dir` records for the same store and namespace as `store`, or null. */
async function committedIn(dir: string, store: VectorStorePart): Promise<CommittedRows | null> {
  const recorded = (await readManifest(dir).catch(() => null))?.manifest.vectorStore;
  if (
    recorded === undefined ||
    recorded.dialect !== store.dialect.name ||
    recorded.namespace !== store.namespace ||
    JSON.stringify(recorded.target) !== JSON.stringify(store.target)
  )
    return null;
  return { generation: recorded.generation, revision: recorded.revision ?? null, retained: recorded.retained ?? [] };
}

/**
 * What a save of `parts` into `dir` records and deletes: the commit the parts derive from (or, for
 * a build not saved yet, the one `dir` holds, which replicas may be serving) is kept, with
 * `keepGenerations - 1` before it.
 */
export async function planStoreSave(dir: string, parts: IndexParts): Promise<RetentionPlan | null> {
  const store = parts.vectorStore;
  if (store === null) return null;
  const base = store.committed ?? (await committedIn(dir, store));
  const current = new Set(parts.chunks.map((chunk) => rowIdOf(chunk, parts.settings.embedder, store)));
  return planRetention(
    base,
    {
      generation: store.generation,
      revision: store.revision,
      pendingDeletes: store.pendingDeletes,
      removed: store.removed,
      current,
    },
    store.keepGenerations,
  );
}

/** The manifest's record of `store` committed with `plan`. */
export function storeRecord(store: VectorStorePart, plan: RetentionPlan): NonNullable<IndexManifest["vectorStore"]> {
  return {
    dialect: store.dialect.name,
    target: { ...store.target },
    namespace: store.namespace,
    generation: store.generation,
    ...(store.revision === null ? {} : { revision: store.revision }),
    pendingDeletes: [...plan.deleteNow],
    ...(plan.retained.length === 0
      ? {}
      : {
          retained: plan.retained.map((entry) => ({
            generation: entry.generation,
            pendingDeletes: [...entry.pendingDeletes],
          })),
        }),
  };
}

/**
 * After a save committed `store`'s index with `plan`: deletes the rows no kept commit reads and
 * the generations none keeps, and makes the commit the store's base. @returns a warning line when
 * the store failed (the rows stay listed, and the manifest just saved holds them, so the next save
 * tries again).
 */
export async function pruneAfterSave(
  store: VectorStorePart,
  plan: RetentionPlan,
  options: WriteOptions,
): Promise<string | null> {
  store.committed = { generation: store.generation, revision: store.revision, retained: plan.retained };
  store.removed = [];
  store.pendingDeletes = [...plan.deleteNow];
  const keep = plan.keepGenerations.filter((generation) => generation !== store.generation);
  const rows = { namespace: store.namespace, generation: store.generation, ...(keep.length === 0 ? {} : { keep }) };
  const { pendingDeleted, warning } = await pruneRows(
    store.store,
    store.dialect,
    rows,
    plan.deleteNow,
    limitsOf(options),
  );
  if (pendingDeleted) store.pendingDeletes = [];
  return warning;
}
