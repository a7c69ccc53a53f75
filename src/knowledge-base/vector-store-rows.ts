import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import { createHash } from "node:crypto";
import { errorDetail, LookupKnowledgeError } from "../errors.js";
import { withDeadline } from "../l1/deadline.js";
import { clearRows, deleteRows, ROW_ID_KEY, ROW_KIND, ROW_KIND_KEY, type VectorStoreDialect } from "../l1/vector-store/vector-store-dialect.js";
import type { Chunk } from "../types.js";
import { contentDigest } from "./content-digest.js";
import type { EmbedderInfo } from "./manifest.js";

/**
 * The id of a chunk's row: a UUID-shaped digest of everything its vector and its metadata come
 * from (the source, the heading path, the frontmatter fields `chunkSearchText` embeds, title and
 * domain, the content, and the embedder), so that an unchanged chunk keeps its row across updates
 * and any change gets a new row (UUID-shaped because pgvector's id column is a `uuid`).
 */
export function rowIdOf(chunk: Chunk, embedder: EmbedderInfo): string {
  const hash = createHash("sha256");
  const { meta } = chunk;
  hash.update(JSON.stringify([chunk.source, chunk.breadcrumb, meta.title ?? null, meta.domain ?? null, meta.keywords, meta.aliases, meta.entities, embedder.kind, embedder.name ?? null, embedder.dimensions]));
  hash.update(contentDigest(chunk));
  const hex = hash.digest("hex");
  // Version 4 / variant 1 bits, as Postgres and most stores accept any well-formed UUID.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Row id → chunk number for `chunks`. */
export function chunkOfRowMap(chunks: readonly Chunk[], embedder: EmbedderInfo): Map<string, number> {
  return new Map(chunks.map((chunk, i) => [rowIdOf(chunk, embedder), i]));
}

/** How a sync writes: rows per `addVectors` call and the time one store call may take. */
export interface RowWriteLimits {
  batchSize: number;
  timeoutMs: number;
}

/** What one sync changes in the store. */
export interface RowChanges {
  /** Delete every row this package wrote first (a full build). */
  clear: boolean;
  /** Rows to write: chunk numbers into `chunks`, with their vectors (row-major, `dimensions` each). */
  add: { chunkIds: readonly number[]; vectors: Float32Array; dimensions: number };
  /** Row ids to delete (chunks changed or removed). */
  remove: readonly string[];
}

async function storeCall(dialect: VectorStoreDialect, step: string, timeoutMs: number, call: () => Promise<unknown>): Promise<void> {
  try {
    await withDeadline(call, {
      timeoutMs,
      onTimeout: () => new LookupKnowledgeError("VECTOR_STORE_TIMEOUT", `the ${dialect.name} vector store did not ${step} within ${timeoutMs} ms; check the database, or raise embedTimeoutMs.`),
    });
  } catch (error) {
    if (error instanceof LookupKnowledgeError) throw error;
    throw new LookupKnowledgeError("VECTOR_STORE_FAILED", `the ${dialect.name} vector store could not ${step}: ${errorDetail(error)}`, { cause: error });
  }
}

/**
 * Brings the store's rows in line with the chunks: writes the new rows (deleting first any of the
 * same id, which a killed earlier sync may have left), then deletes the rows of changed and
 * removed chunks. A sync that stops half-way is finished by the next one, which computes the same
 * changes from the saved index.
 * @throws LookupKnowledgeError `VECTOR_STORE_FAILED` or `VECTOR_STORE_TIMEOUT` naming the step.
 */
export async function syncRows(store: VectorStoreInterface, dialect: VectorStoreDialect, chunks: readonly Chunk[], embedder: EmbedderInfo, changes: RowChanges, limits: RowWriteLimits, onProgress?: (done: number, total: number) => void): Promise<void> {
  if (changes.clear) await storeCall(dialect, "delete its old rows", limits.timeoutMs, () => clearRows(store, dialect));
  const { chunkIds, vectors, dimensions } = changes.add;
  for (let start = 0; start < chunkIds.length; start += limits.batchSize) {
    const ids = chunkIds.slice(start, start + limits.batchSize);
    const rowIds = ids.map((id) => rowIdOf(chunks[id], embedder));
    const rows = ids.map((_, i) => Array.from(vectors.subarray((start + i) * dimensions, (start + i + 1) * dimensions)));
    const docs = ids.map((id, i) => ({
      pageContent: chunks[id].content,
      metadata: { [ROW_KIND_KEY]: ROW_KIND, [ROW_ID_KEY]: rowIds[i], source: chunks[id].source, title: chunks[id].meta.title ?? null, domain: chunks[id].meta.domain ?? null },
      id: rowIds[i],
    }));
    if (!changes.clear) await storeCall(dialect, `replace rows ${start + 1}-${start + ids.length}`, limits.timeoutMs, () => deleteRows(store, dialect, rowIds));
    await storeCall(dialect, `add rows ${start + 1}-${start + ids.length}`, limits.timeoutMs, () => store.addVectors(rows, docs, { ids: rowIds }));
    onProgress?.(start + ids.length, chunkIds.length);
  }
  for (let start = 0; start < changes.remove.length; start += limits.batchSize) {
    const ids = changes.remove.slice(start, start + limits.batchSize);
    await storeCall(dialect, `delete ${ids.length} old rows`, limits.timeoutMs, () => deleteRows(store, dialect, [...ids]));
  }
}

/** A vector store option as given: the store and its dialect. */
export interface VectorStoreL1Option {
  /** The LangChain vector store that holds L1 (e.g. a `PGVectorStore`); its own embeddings are not used. */
  store: VectorStoreInterface;
  /** How to filter, score and delete in this store: `pgvectorDialect`, `memoryDialect` or your own. */
  dialect: VectorStoreDialect;
}

/** Checks a `vectorStore` option. @throws LookupKnowledgeError `INVALID_OPTION` naming what is missing. */
export function checkVectorStoreOption(option: unknown, embeddings: EmbeddingsInterface | null | undefined): VectorStoreL1Option {
  const given = option as Partial<VectorStoreL1Option> | null;
  const fix = "pass { store, dialect }, e.g. { store: await PGVectorStore.initialize(embeddings, config), dialect: pgvectorDialect }";
  if (typeof given !== "object" || given === null) throw new LookupKnowledgeError("INVALID_OPTION", `option vectorStore must be an object; ${fix}.`);
  const store = given.store as Partial<VectorStoreInterface> | undefined;
  if (typeof store?.similaritySearchVectorWithScore !== "function" || typeof store.addVectors !== "function") {
    throw new LookupKnowledgeError("INVALID_OPTION", `option vectorStore.store must be a LangChain vector store (with addVectors and similaritySearchVectorWithScore); ${fix}.`);
  }
  const dialect = given.dialect as Partial<VectorStoreDialect> | undefined;
  if (typeof dialect?.name !== "string" || typeof dialect.domainFilter !== "function" || typeof dialect.similarity !== "function") {
    throw new LookupKnowledgeError("INVALID_OPTION", `option vectorStore.dialect must have a name, domainFilter and similarity; ${fix}.`);
  }
  if (embeddings === null) throw new LookupKnowledgeError("INVALID_OPTION", "option vectorStore needs embeddings for L1; leave embeddings out (the default embedder) or pass yours, not null.");
  dialect.attach?.(given.store as VectorStoreInterface);
  return given as VectorStoreL1Option;
}
