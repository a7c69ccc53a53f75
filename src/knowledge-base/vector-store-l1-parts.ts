import { createTermCoverage } from "../l0/term-coverage.js";
import type { L1Searcher } from "../l1/l1-search.js";
import { createVectorStoreL1Searcher } from "../l1/vector-store/vector-store-l1.js";
import { DEFAULT_EMBED_BATCH_SIZE, DEFAULT_EMBED_TIMEOUT_MS } from "../l1/embeddings/embed-batches.js";
import type { IndexParts, VectorStorePart } from "./index-parts.js";
import { targetOf, type VectorStoreL1Option } from "./vector-store-option.js";
import { foreignRowIds } from "./row-retention.js";
import { chunkOfRowMap, newGeneration, rowIdOf, writeRows, type RowWriteLimits } from "./vector-store-rows.js";

/** Batch size and deadline of store writes (those of embedding), and the caller's `onWarning`. */
export interface WriteOptions {
  embedBatchSize?: number;
  embedTimeoutMs?: number;
  onWarning?: (message: string) => void;
}

export function limitsOf(options: WriteOptions): RowWriteLimits {
  return {
    batchSize: options.embedBatchSize ?? DEFAULT_EMBED_BATCH_SIZE,
    timeoutMs: options.embedTimeoutMs ?? DEFAULT_EMBED_TIMEOUT_MS,
    ...(options.onWarning ? { onWarning: options.onWarning } : {}),
  };
}

/** Most row ids a lookup excludes inside the store's search; beyond, they are dropped after it. */
const MAX_EXCLUDED_ROWS = 1000;

/** L1 over the store of `parts`, or null when `parts` keep L1 in HNSW or have no embeddings. */
export function storeSearcherOf(parts: IndexParts): L1Searcher | null {
  const { vectorStore, embeddings, chunks, settings } = parts;
  if (vectorStore === null || embeddings === null) return null;
  const dimensions = settings.embedder.dimensions;
  if (dimensions === null) return { search: async () => [] };
  const rows = { namespace: vectorStore.namespace, generation: vectorStore.generation };
  const chunkOfRow = chunkOfRowMap(chunks, settings.embedder, rows);
  return createVectorStoreL1Searcher({
    store: vectorStore.store,
    dialect: vectorStore.dialect,
    chunks,
    chunkOfRow,
    // Read at each lookup: a save moves rows between these lists.
    rows: () => {
      const foreign = foreignRowIds(
        vectorStore.generation,
        vectorStore.committed?.retained ?? [],
        vectorStore.removed,
        vectorStore.pendingDeletes,
      ).filter((id) => !chunkOfRow.has(id));
      return { ...rows, revision: vectorStore.revision, exclude: foreign.length > MAX_EXCLUDED_ROWS ? null : foreign };
    },
    embeddings,
    dimensions,
    coverage: createTermCoverage(parts.bm25),
  });
}

/**
 * A full build's store: one row per chunk, written as a new generation from the vectors just
 * built. The rows of earlier builds are left for the save to delete once the new index is
 * committed, so a build killed half-way leaves the saved index's rows whole.
 * @throws LookupKnowledgeError `VECTOR_STORE_FAILED` / `VECTOR_STORE_TIMEOUT`; `INVALID_OPTION` for a dialect whose target cannot be saved.
 */
export async function writeBuildRows(
  parts: Omit<IndexParts, "vectorStore">,
  option: Required<VectorStoreL1Option>,
  options: WriteOptions,
): Promise<VectorStorePart> {
  const target = targetOf(option);
  const store: VectorStorePart = {
    ...option,
    target,
    generation: newGeneration(),
    revision: 0,
    pendingDeletes: [],
    removed: [],
    committed: null,
  };
  const { vectorIndex, chunks, settings } = parts;
  if (vectorIndex === null) return store;
  const chunkIds = chunks.map((_, i) => i);
  const add = { chunkIds, vectors: vectorIndex.vectorsOf(chunkIds), dimensions: vectorIndex.dimensions, fresh: true };
  await writeRows(option.store, option.dialect, chunks, settings.embedder, store, add, limitsOf(options));
  return store;
}

/**
 * An update's store: rows of new and changed chunks are written; rows of changed and removed ones
 * are listed for the save to delete. After a refit of the embedder every row is written again, as
 * a new generation. @returns the store part and how many rows were written and are to be deleted.
 * @throws LookupKnowledgeError `VECTOR_STORE_FAILED` / `VECTOR_STORE_TIMEOUT`; the next update finishes the sync.
 */
export async function syncUpdateRows(
  before: Pick<IndexParts, "chunks" | "settings">,
  after: Pick<IndexParts, "chunks" | "settings" | "vectorIndex" | "vectorStore">,
  refitted: boolean,
  options: WriteOptions,
): Promise<{ vectorStore: VectorStorePart | null; written: number; deleted: number }> {
  const previous = after.vectorStore;
  if (previous === null || after.vectorIndex === null) return { vectorStore: previous, written: 0, deleted: 0 };
  const generation = refitted ? newGeneration() : previous.generation;
  const revision = refitted ? 0 : previous.revision === null ? null : previous.revision + 1;
  const store: VectorStorePart = {
    ...previous,
    generation,
    revision,
    pendingDeletes: [...previous.pendingDeletes],
    removed: refitted ? [] : [...previous.removed],
  };
  const old = new Set(before.chunks.map((chunk) => rowIdOf(chunk, before.settings.embedder, previous)));
  const now = after.chunks.map((chunk) => rowIdOf(chunk, after.settings.embedder, store));
  const kept = new Set(now);
  // Rows kept for replicas of earlier commits exist still: a chunk changed back to one of them reads it again.
  const existing = refitted
    ? new Set<string>()
    : new Set(foreignRowIds(generation, previous.committed?.retained ?? [], previous.removed));
  const chunkIds = now.flatMap((id, i) => (refitted || (!old.has(id) && !existing.has(id)) ? [i] : []));
  // After a refit the old generation goes as a whole; otherwise the rows no chunk has any more.
  const removed = refitted ? [] : [...old].filter((id) => !kept.has(id));
  store.removed = [...new Set([...store.removed, ...removed])].filter((id) => !kept.has(id));
  store.pendingDeletes = store.pendingDeletes.filter((id) => !kept.has(id));
  const add = {
    chunkIds,
    vectors: after.vectorIndex.vectorsOf(chunkIds),
    dimensions: after.vectorIndex.dimensions,
    fresh: refitted,
  };
  await writeRows(store.store, store.dialect, after.chunks, after.settings.embedder, store, add, limitsOf(options));
  return { vectorStore: store, written: chunkIds.length, deleted: refitted ? old.size : removed.length };
}
