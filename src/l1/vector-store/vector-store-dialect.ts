import type { VectorStoreInterface } from "@langchain/core/vectorstores";

/** Where a store keeps the rows of one knowledge base, as the manifest records it: table, collection... */
export type VectorStoreTarget = Readonly<Record<string, string | number | null>>;

/**
 * Which rows a search or a delete may touch: those of one knowledge base (`namespace`) and of its
 * current generation (a full build or an embedder refit starts a new one), and, for a search, of
 * one domain.
 */
export interface RowScope {
  /** Only rows whose `lk_kb` is this: the knowledge base's namespace (`VectorStoreL1Option.namespace`). */
  namespace: string;
  /** Only rows whose `lk_gen` is this: the generation of rows the index reads. */
  generation: string;
  /** Only rows of this domain; null: every domain. */
  domain: string | null;
  /**
   * Only rows whose `lk_acl` is one of these keys (the label sets the lookup's access scope may
   * read; never empty); null: every row (an unscoped lookup). A dialect that ignores it stays
   * safe (hits outside the scope are dropped after the search) but returns fewer than `k` hits.
   */
  access?: string[] | null;
  /**
   * Only rows whose `lk_rev` is at most this (rows later updates added, which replicas of this
   * commit do not read); null or absent: any. Rows without `lk_rev` are never searched with one.
   */
  revision?: number | null;
  /**
   * Rows whose `lk_id` is none of these (rows of this generation kept for replicas of earlier
   * commits, or still to be deleted); null or absent: none. A dialect that ignores it stays
   * correct (such hits are dropped after the search) but returns fewer than `k` hits.
   */
  exclude?: string[] | null;
}

/**
 * What L1 needs to know about one kind of LangChain vector store: how a filter on the rows'
 * metadata is written for it, how its scores become cosine similarities, and how rows are deleted.
 * Built-in ones: {@link pgvectorDialect} (`PGVectorStore`) and {@link memoryDialect}
 * (`MemoryVectorStore`); write one for another store in a few lines.
 * @example
 * // Qdrant (@langchain/qdrant), cosine collection: not run against a Qdrant server here.
 * const qdrantDialect: VectorStoreDialect = {
 *   name: "qdrant",
 *   filter: ({ namespace, generation, domain, access }) => ({
 *     must: [
 *       { key: "metadata.lk_kb", match: { value: namespace } },
 *       { key: "metadata.lk_gen", match: { value: generation } },
 *       ...(domain === null ? [] : [{ key: "metadata.domain", match: { value: domain } }]),
 *       ...(access == null ? [] : [{ key: "metadata.lk_acl", match: { any: access } }]),
 *     ],
 *   }),
 *   similarity: (score) => score,
 * };
 */
export interface VectorStoreDialect {
  /** Recorded in the manifest (a-z, 0-9, `_`, `-`; at most 64); a load checks that its store is of this dialect. */
  readonly name: string;
  /**
   * The store's filter for rows whose metadata has `lk_kb` = namespace, `lk_gen` = generation,
   * unless null `domain` = domain, and unless null `lk_acl` in `access`; applied inside its search,
   * with values passed as parameters (never spliced into a query).
   */
  filter(scope: RowScope): unknown;
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
  /**
   * Called before a build or update writes rows, with their vector length and whether it is final
   * (a custom embedder's, or the default embedder's full length; below that it changes with the
   * corpus): the pgvector dialect gives a table `connectPgVectorStore` opened (with
   * `createIndexes`) its `vector(n)` column and HNSW index here, for a final length. @default nothing
   */
  prepare?(store: VectorStoreInterface, rows: { dimensions: number; final: boolean }): Promise<void>;
  /** Deletes rows by id. @default `store.delete({ ids })` */
  deleteIds?(store: VectorStoreInterface, ids: string[]): Promise<void>;
  /**
   * Deletes the rows of `namespace` of every generation but `generation` and those in `keep` (what
   * earlier builds and killed ones left; `keep`: generations replicas may still read), after a save
   * commits. Without it, those rows stay in the store, never returned (the search filters on the
   * generation), and a save warns.
   */
  deleteOtherGenerations?(
    store: VectorStoreInterface,
    scope: { namespace: string; generation: string; keep?: readonly string[] },
  ): Promise<void>;
}

/** Metadata keys of the rows this package writes. */
export const ROW_KIND_KEY = "lk_kind";
export const ROW_KIND = "chunk";
/** The row's id (the store's own id field is not returned by every store). */
export const ROW_ID_KEY = "lk_id";
/** The knowledge base the row belongs to (`vectorStore.namespace`). */
export const ROW_NAMESPACE_KEY = "lk_kb";
/** The generation of rows the row belongs to. */
export const ROW_GENERATION_KEY = "lk_gen";
/** The revision (updates since the generation's build) of the commit that wrote the row: a number. */
export const ROW_REVISION_KEY = "lk_rev";
/** The row's access key: `open` for an unlabelled chunk, else a digest of its `access` groups (see `access-key.ts`). */
export const ROW_ACCESS_KEY = "lk_acl";

/** Deletes rows through the dialect or the store's own `delete`. */
export async function deleteRows(
  store: VectorStoreInterface,
  dialect: VectorStoreDialect,
  ids: string[],
): Promise<void> {
  if (ids.length === 0) return;
  if (dialect.deleteIds) return dialect.deleteIds(store, ids);
  await store.delete({ ids });
}
