import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import { prepareManagedStore } from "./pgvector-schema.js";
import {
  ROW_ACCESS_KEY,
  ROW_GENERATION_KEY,
  ROW_ID_KEY,
  ROW_NAMESPACE_KEY,
  ROW_REVISION_KEY,
  type VectorStoreDialect,
} from "./vector-store-dialect.js";

/** The part of a `pg` pool or client this dialect touches. */
interface ErrorEmitter {
  on?(event: "error", listener: (error: unknown) => void): unknown;
  listenerCount?(event: "error"): number;
}

/** An `error` listener on `emitter` unless it has one: without any, Node throws the event. */
function keepErrorsFromCrashing(emitter: ErrorEmitter | undefined): void {
  if (typeof emitter?.on !== "function" || typeof emitter.listenerCount !== "function") return;
  if (emitter.listenerCount("error") === 0) emitter.on("error", () => {});
}

/** The fields of `@langchain/community`'s `PGVectorStore` this dialect reads. */
interface PgVectorFields {
  pool?: ErrorEmitter;
  client?: ErrorEmitter;
  distanceStrategy?: string;
  scoreNormalization?: string;
  schemaName?: string | null;
  tableName?: string;
  collectionName?: string;
  collectionTableName?: string;
}

/** The raw pgvector distance behind a score the store may have normalised (`scoreNormalization: "similarity"`). */
function distanceOf(score: number, strategy: string, normalization: string | undefined): number {
  if (normalization !== "similarity") return score;
  if (strategy === "cosine") return 2 - 2 * score; // the store gives (2 - d) / 2
  if (strategy === "euclidean") return 1 / score - 1; // the store gives 1 / (1 + d)
  return score;
}

/**
 * `PGVectorStore` (`@langchain/community/vectorstores/pgvector`, Postgres with pgvector): the
 * filter is its metadata filter (`WHERE metadata->>'domain' = $n AND metadata->>'lk_acl' IN (...)` in the search's own query,
 * parameterised), and its scores are distances of its
 * `distanceStrategy` (or its normalised similarities, with `scoreNormalization: "similarity"`).
 * For unit-length vectors (the default embedder's) all three strategies give the cosine.
 */
export const pgvectorDialect: VectorStoreDialect = {
  name: "pgvector",
  filter: ({ namespace, generation, domain, access, revision, exclude }) => ({
    [ROW_NAMESPACE_KEY]: namespace,
    [ROW_GENERATION_KEY]: generation,
    ...(domain === null ? {} : { domain }),
    // `metadata->>'lk_acl' IN ($4, $5, ...)`: the store binds each key as a parameter.
    ...(access == null ? {} : { [ROW_ACCESS_KEY]: { in: access } }),
    // `(metadata->>'lk_rev')::numeric <= $n` and `metadata->>'lk_id' NOT IN (...)`, bound likewise.
    ...(revision == null ? {} : { [ROW_REVISION_KEY]: { lte: revision } }),
    ...(exclude == null || exclude.length === 0 ? {} : { [ROW_ID_KEY]: { notIn: exclude } }),
  }),
  similarity(score, store) {
    const { distanceStrategy = "cosine", scoreNormalization } = store as PgVectorFields;
    if (distanceStrategy === "innerProduct") return scoreNormalization === "similarity" ? score : -score; // `<#>` is the negative inner product
    const distance = distanceOf(score, distanceStrategy, scoreNormalization);
    return distanceStrategy === "euclidean" ? 1 - (distance * distance) / 2 : 1 - distance; // `<=>` is the cosine distance
  },
  attach(store: VectorStoreInterface) {
    // A connection the server drops emits `error` on the pool (idle clients) or on the client the
    // store keeps checked out; the next query then fails, and the lookup falls back to L0.
    keepErrorsFromCrashing((store as PgVectorFields).pool);
    keepErrorsFromCrashing((store as PgVectorFields).client);
  },
  async prepare(store, { dimensions, final }) {
    if (final) await prepareManagedStore(store, dimensions);
  },
  async deleteOtherGenerations(store, { namespace, generation, keep = [] }) {
    const kept = [...new Set([generation, ...keep])];
    await store.delete({
      filter: {
        [ROW_NAMESPACE_KEY]: namespace,
        [ROW_GENERATION_KEY]: kept.length === 1 ? { neq: generation } : { notIn: kept },
      },
    });
  },
  target(store: VectorStoreInterface) {
    const fields = store as PgVectorFields;
    return {
      schema: fields.schemaName ?? null,
      table: fields.tableName ?? null,
      collection: fields.collectionTableName ? (fields.collectionName ?? null) : null,
    };
  },
};
