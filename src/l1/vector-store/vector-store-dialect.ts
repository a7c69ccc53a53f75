import type { VectorStoreInterface } from "@langchain/core/vectorstores";

/** Where a store keeps the rows of one knowledge base, as the manifest records it: table, collection, URL... */
export type VectorStoreTarget = Readonly<Record<string, string | number | null>>;

/**
 * What L1 needs to know about one kind of LangChain vector store: how a domain filter is written
 * for it, how its scores become cosine similarities, and how rows are deleted. Built-in ones:
 * {@link pgvectorDialect} (`PGVectorStore`) and {@link memoryDialect} (`MemoryVectorStore`);
 * write one for another store in a few lines.
 * @example
 * const qdrantDialect: VectorStoreDialect = {
 *   name: "qdrant",
 *   domainFilter: (domain) => ({ must: [{ key: "metadata.domain", match: { value: domain } }] }),
 *   similarity: (score) => score,
 *   target: (store) => ({ collection: (store as { collectionName?: string }).collectionName ?? null }),
 * };
 */
export interface VectorStoreDialect {
  /** Recorded in the manifest; a load checks that the store it gets is of this dialect. */
  readonly name: string;
  /** The store's filter for "metadata.domain equals `domain`", applied inside its search. */
  domainFilter(domain: string): unknown;
  /** The store's score of a hit as a cosine similarity (higher is closer), e.g. `1 - distance`. */
  similarity(score: number, store: VectorStoreInterface): number;
  /** Where `store` keeps its rows, recorded in the manifest and compared at load. @default `{}` */
  target?(store: VectorStoreInterface): VectorStoreTarget;
  /**
   * Called once when a knowledge base takes the store (build or load), to make it safe to hold:
   * the pgvector dialect gives the store's pool and its dedicated client an `error` listener, so a
   * dropped database connection fails lookups (which fall back to L0) instead of crashing the
   * process with an unhandled `error` event. @default nothing
   */
  attach?(store: VectorStoreInterface): void;
  /** Deletes rows by id. @default `store.delete({ ids })` */
  deleteIds?(store: VectorStoreInterface, ids: string[]): Promise<void>;
  /** Deletes every row this package wrote (a full build starts from an empty table). @default `store.delete({ filter: { lk_kind: "chunk" } })` */
  clear?(store: VectorStoreInterface): Promise<void>;
}

/** Metadata key and value that mark the rows this package writes. */
export const ROW_KIND_KEY = "lk_kind";
export const ROW_KIND = "chunk";
/** Metadata key of a row's id (the store's own id field is not returned by every store). */
export const ROW_ID_KEY = "lk_id";

/** Deletes rows through the dialect or the store's own `delete`. */
export async function deleteRows(store: VectorStoreInterface, dialect: VectorStoreDialect, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  if (dialect.deleteIds) return dialect.deleteIds(store, ids);
  await store.delete({ ids });
}

/** Deletes every row this package wrote, through the dialect or the store's own `delete`. */
export async function clearRows(store: VectorStoreInterface, dialect: VectorStoreDialect): Promise<void> {
  if (dialect.clear) return dialect.clear(store);
  await store.delete({ filter: { [ROW_KIND_KEY]: ROW_KIND } });
}
