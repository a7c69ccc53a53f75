import { createTermCoverage } from "../l0/term-coverage.js";
import type { L1Searcher } from "../l1/l1-search.js";
import { createVectorStoreL1Searcher } from "../l1/vector-store/vector-store-l1.js";
import { DEFAULT_EMBED_BATCH_SIZE, DEFAULT_EMBED_TIMEOUT_MS } from "./embed-chunks.js";
import type { IndexParts, VectorStorePart } from "./index-parts.js";
import { chunkOfRowMap, rowIdOf, syncRows, type VectorStoreL1Option } from "./vector-store-rows.js";

/** Batch size and deadline of store writes: those of embedding. */
interface WriteOptions {
  embedBatchSize?: number;
  embedTimeoutMs?: number;
}

function limitsOf(options: WriteOptions) {
  return { batchSize: options.embedBatchSize ?? DEFAULT_EMBED_BATCH_SIZE, timeoutMs: options.embedTimeoutMs ?? DEFAULT_EMBED_TIMEOUT_MS };
}

/** L1 over the store of `parts`, or null when `parts` keep L1 in HNSW or have no embeddings. */
export function storeSearcherOf(parts: IndexParts): L1Searcher | null {
  const { vectorStore, embeddings, chunks, settings } = parts;
  if (vectorStore === null || embeddings === null) return null;
  const dimensions = settings.embedder.dimensions;
  if (dimensions === null) return { search: async () => [] };
  return createVectorStoreL1Searcher({
    store: vectorStore.store,
    dialect: vectorStore.dialect,
    chunks,
    chunkOfRow: chunkOfRowMap(chunks, settings.embedder),
    embeddings,
    dimensions,
    coverage: createTermCoverage(parts.bm25),
  });
}

/**
 * A full build's store: every row this package wrote before is deleted, then one row per chunk is
 * written from the vectors just built. @returns the store part of the knowledge base.
 * @throws LookupKnowledgeError `VECTOR_STORE_FAILED` / `VECTOR_STORE_TIMEOUT`.
 */
export async function writeBuildRows(parts: Omit<IndexParts, "vectorStore">, option: VectorStoreL1Option, options: WriteOptions): Promise<VectorStorePart> {
  const target = option.dialect.target?.(option.store) ?? {};
  const { vectorIndex, chunks, settings } = parts;
  const chunkIds = vectorIndex === null ? [] : chunks.map((_, i) => i);
  const vectors = vectorIndex === null ? new Float32Array(0) : vectorIndex.vectorsOf(chunkIds);
  await syncRows(option.store, option.dialect, chunks, settings.embedder, { clear: true, add: { chunkIds, vectors, dimensions: vectorIndex?.dimensions ?? 0 }, remove: [] }, limitsOf(options));
  return { ...option, target };
}

/**
 * An update's store: rows of new and changed chunks are written, rows of changed and removed ones
 * deleted; after a refit of the embedder every row is written again (its vectors are another
 * model's). @returns how many rows were written and deleted.
 * @throws LookupKnowledgeError `VECTOR_STORE_FAILED` / `VECTOR_STORE_TIMEOUT`; the next update finishes the sync.
 */
export async function syncUpdateRows(before: Pick<IndexParts, "chunks" | "settings">, after: Pick<IndexParts, "chunks" | "settings" | "vectorIndex" | "vectorStore">, refitted: boolean, options: WriteOptions): Promise<{ written: number; deleted: number }> {
  const store = after.vectorStore;
  if (store === null || after.vectorIndex === null) return { written: 0, deleted: 0 };
  const old = new Set(before.chunks.map((chunk) => rowIdOf(chunk, before.settings.embedder)));
  const now = after.chunks.map((chunk) => rowIdOf(chunk, after.settings.embedder));
  const kept = new Set(now);
  const chunkIds = now.flatMap((id, i) => (refitted || !old.has(id) ? [i] : []));
  const remove = [...old].filter((id) => !kept.has(id));
  const vectors = after.vectorIndex.vectorsOf(chunkIds);
  await syncRows(store.store, store.dialect, after.chunks, after.settings.embedder, { clear: false, add: { chunkIds, vectors, dimensions: after.vectorIndex.dimensions }, remove }, limitsOf(options));
  return { written: chunkIds.length, deleted: remove.length };
}
