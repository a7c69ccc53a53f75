import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import { createHash, randomBytes } from "node:crypto";
import { errorDetail, LookupKnowledgeError } from "../errors.js";
import { withDeadline } from "../l1/deadline.js";
import { deleteRows, ROW_GENERATION_KEY, ROW_ID_KEY, ROW_KIND, ROW_KIND_KEY, ROW_NAMESPACE_KEY, type VectorStoreDialect, type VectorStoreTarget } from "../l1/vector-store/vector-store-dialect.js";
import type { Chunk } from "../types.js";
import { contentDigest } from "./content-digest.js";
import type { EmbedderInfo } from "./manifest.js";

/** The rows of one knowledge base in a store: its namespace and their current generation. */
export interface RowSet {
  namespace: string;
  generation: string;
}

/** A new generation id: 16 hex digits. */
export function newGeneration(): string {
  return randomBytes(8).toString("hex");
}

/**
 * The id of a chunk's row: a UUID-shaped digest of the row set and of everything the row's vector
 * and metadata come from (the source, the heading path, the frontmatter fields `chunkSearchText`
 * embeds, title and domain, the content, and the embedder), so that an unchanged chunk keeps its
 * row across updates, any change gets a new row, and no two knowledge bases or generations share
 * an id (UUID-shaped because pgvector's id column is a `uuid`).
 */
export function rowIdOf(chunk: Chunk, embedder: EmbedderInfo, rows: RowSet): string {
  const hash = createHash("sha256");
  const { meta } = chunk;
  hash.update(JSON.stringify([rows.namespace, rows.generation, chunk.source, chunk.breadcrumb, meta.title ?? null, meta.domain ?? null, meta.keywords, meta.aliases, meta.entities, embedder.kind, embedder.name ?? null, embedder.dimensions]));
  hash.update(contentDigest(chunk));
  const hex = hash.digest("hex");
  // Version 4 / variant 1 bits, as Postgres and most stores accept any well-formed UUID.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Row id → chunk number for `chunks`. */
export function chunkOfRowMap(chunks: readonly Chunk[], embedder: EmbedderInfo, rows: RowSet): Map<string, number> {
  return new Map(chunks.map((chunk, i) => [rowIdOf(chunk, embedder, rows), i]));
}

/** How a sync writes: rows per `addVectors` call and the time one store call may take. */
export interface RowWriteLimits {
  batchSize: number;
  timeoutMs: number;
}

/** Rows to write: chunk numbers into `chunks`, with their vectors (row-major, `dimensions` each). */
export interface RowAdditions {
  chunkIds: readonly number[];
  vectors: Float32Array;
  dimensions: number;
  /** True for a new generation, whose ids no store holds yet; false deletes each id before writing it (a killed sync may have left it). */
  fresh: boolean;
}

/** Runs one store call within the deadline. @throws LookupKnowledgeError `VECTOR_STORE_FAILED` / `VECTOR_STORE_TIMEOUT` naming `step`. */
export async function storeCall(dialect: VectorStoreDialect, step: string, timeoutMs: number, call: () => Promise<unknown>): Promise<void> {
  try {
    await withDeadline(async () => call(), {
      timeoutMs,
      onTimeout: () => new LookupKnowledgeError("VECTOR_STORE_TIMEOUT", `the ${dialect.name} vector store did not ${step} within ${timeoutMs} ms; check the database, or raise embedTimeoutMs.`),
    });
  } catch (error) {
    if (error instanceof LookupKnowledgeError) throw error;
    throw new LookupKnowledgeError("VECTOR_STORE_FAILED", `the ${dialect.name} vector store could not ${step}: ${errorDetail(error)}`, { cause: error });
  }
}

/**
 * Writes the rows of `add` in batches. Nothing is deleted here: rows of removed chunks and of
 * other generations are deleted once a save has committed the index that no longer needs them
 * ({@link pruneRows}), so a sync killed at any point leaves the saved index's rows whole.
 * @throws LookupKnowledgeError `VECTOR_STORE_FAILED` or `VECTOR_STORE_TIMEOUT` naming the step.
 */
export async function writeRows(store: VectorStoreInterface, dialect: VectorStoreDialect, chunks: readonly Chunk[], embedder: EmbedderInfo, rows: RowSet, add: RowAdditions, limits: RowWriteLimits, onProgress?: (done: number, total: number) => void): Promise<void> {
  const { chunkIds, vectors, dimensions } = add;
  for (let start = 0; start < chunkIds.length; start += limits.batchSize) {
    const ids = chunkIds.slice(start, start + limits.batchSize);
    const rowIds = ids.map((id) => rowIdOf(chunks[id], embedder, rows));
    const vectorsOfBatch = ids.map((_, i) => Array.from(vectors.subarray((start + i) * dimensions, (start + i + 1) * dimensions)));
    const docs = ids.map((id, i) => ({
      pageContent: chunks[id].content,
      metadata: { [ROW_KIND_KEY]: ROW_KIND, [ROW_NAMESPACE_KEY]: rows.namespace, [ROW_GENERATION_KEY]: rows.generation, [ROW_ID_KEY]: rowIds[i], source: chunks[id].source, title: chunks[id].meta.title ?? null, domain: chunks[id].meta.domain ?? null },
      id: rowIds[i],
    }));
    const span = `rows ${start + 1}-${start + ids.length}`;
    if (!add.fresh) await storeCall(dialect, `replace ${span}`, limits.timeoutMs, () => deleteRows(store, dialect, rowIds));
    await storeCall(dialect, `add ${span}`, limits.timeoutMs, () => store.addVectors(vectorsOfBatch, docs, { ids: rowIds }));
    onProgress?.(start + ids.length, chunkIds.length);
  }
}

/**
 * Deletes what a committed index no longer needs: the rows `pending` lists (chunks an update
 * changed or removed) and the rows of the namespace's other generations. @returns whether the
 * pending rows are gone, and a warning line for the save's `onWarning` when something could not
 * be deleted (the next save tries again).
 */
export async function pruneRows(store: VectorStoreInterface, dialect: VectorStoreDialect, rows: RowSet, pending: readonly string[], limits: RowWriteLimits): Promise<{ pendingDeleted: boolean; warning: string | null }> {
  const failed = (error: unknown) => `lookup-knowledge: the index is saved, but ${errorDetail(error)}; those rows are never returned, and the next save deletes them.`;
  try {
    for (let start = 0; start < pending.length; start += limits.batchSize) {
      const ids = pending.slice(start, start + limits.batchSize);
      await storeCall(dialect, `delete ${ids.length} old rows`, limits.timeoutMs, () => deleteRows(store, dialect, [...ids]));
    }
  } catch (error) {
    return { pendingDeleted: false, warning: failed(error) };
  }
  const other = dialect.deleteOtherGenerations;
  if (other === undefined) return { pendingDeleted: true, warning: `lookup-knowledge: the ${dialect.name} dialect has no deleteOtherGenerations, so rows of earlier builds stay in the store (never returned: lookups filter on the generation).` };
  try {
    await storeCall(dialect, "delete the rows of earlier builds", limits.timeoutMs, () => other.call(dialect, store, rows));
    return { pendingDeleted: true, warning: null };
  } catch (error) {
    return { pendingDeleted: true, warning: failed(error) };
  }
}

/** A vector store option as given: the store, its dialect and the knowledge base's namespace in it. */
export interface VectorStoreL1Option {
  /** The LangChain vector store that holds L1 (e.g. a `PGVectorStore`); its own embeddings are not used. */
  store: VectorStoreInterface;
  /** How to filter, score and delete in this store: `pgvectorDialect`, `memoryDialect` or your own. */
  dialect: VectorStoreDialect;
  /**
   * Which knowledge base the rows belong to, so that several share one table (1-64 letters,
   * digits, `_`, `.`, `-`). A build replaces the rows of its namespace only. A load takes the
   * namespace the manifest records; one given must be that one.
   * @default "default" (a build); the recorded one (a load)
   */
  namespace?: string;
}

/** Default of {@link VectorStoreL1Option.namespace}. */
export const DEFAULT_NAMESPACE = "default";
/** What a dialect name, a namespace and a target's keys may be: they are written to the manifest and printed. */
export const DIALECT_NAME = /^[a-z][a-z0-9_-]{0,63}$/;
export const NAMESPACE = /^[A-Za-z0-9_.-]{1,64}$/;
export const TARGET_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;
/** Largest number of fields of a target, and of characters of one of its strings. */
export const MAX_TARGET_FIELDS = 16;
export const MAX_TARGET_STRING = 1000;

/** What is wrong with a dialect's target for the manifest, or null. */
export function targetProblem(target: unknown): string | null {
  if (typeof target !== "object" || target === null || Array.isArray(target)) return "is not an object";
  const entries = Object.entries(target);
  if (entries.length > MAX_TARGET_FIELDS) return `has ${entries.length} fields (at most ${MAX_TARGET_FIELDS})`;
  for (const [key, value] of entries) {
    if (!TARGET_KEY.test(key)) return `has a field name that is not a short identifier`;
    const ok = value === null || (typeof value === "number" && Number.isFinite(value)) || (typeof value === "string" && value.length <= MAX_TARGET_STRING);
    if (!ok) return `field ${key} is not null, a finite number or a string of at most ${MAX_TARGET_STRING} characters`;
  }
  return null;
}

/** The target a dialect reports for a store, checked. @throws LookupKnowledgeError `INVALID_OPTION`. */
export function targetOf(option: VectorStoreL1Option): VectorStoreTarget {
  let problem: string | null;
  let copy: VectorStoreTarget;
  try {
    // Read once, into a plain copy: the dialect's object may have getters of its own.
    const target: unknown = option.dialect.target?.(option.store) ?? {};
    const isObject = typeof target === "object" && target !== null && !Array.isArray(target);
    copy = isObject ? Object.fromEntries(Object.entries(target)) : {};
    problem = targetProblem(isObject ? copy : target);
  } catch (error) {
    throw new LookupKnowledgeError("INVALID_OPTION", `the ${option.dialect.name} dialect's target() threw: ${errorDetail(error)}.`, { cause: error });
  }
  if (problem !== null) throw new LookupKnowledgeError("INVALID_OPTION", `the ${option.dialect.name} dialect's target() ${problem}; it is saved in the manifest, so return a small object of strings and numbers.`);
  return copy;
}

/** Checks a `vectorStore` option. @throws LookupKnowledgeError `INVALID_OPTION` naming what is missing. */
export function checkVectorStoreOption(option: unknown, embeddings: EmbeddingsInterface | null | undefined): Required<VectorStoreL1Option> {
  const given = option as Partial<VectorStoreL1Option> | null;
  const fix = "pass { store, dialect }, e.g. await connectPgVectorStore({ connectionString }) or { store: await PGVectorStore.initialize(embeddings, config), dialect: pgvectorDialect }";
  if (typeof given !== "object" || given === null) throw new LookupKnowledgeError("INVALID_OPTION", `option vectorStore must be an object; ${fix}.`);
  const store = given.store as Partial<VectorStoreInterface> | undefined;
  if (typeof store?.similaritySearchVectorWithScore !== "function" || typeof store.addVectors !== "function") {
    throw new LookupKnowledgeError("INVALID_OPTION", `option vectorStore.store must be a LangChain vector store (with addVectors and similaritySearchVectorWithScore); ${fix}.`);
  }
  const dialect = given.dialect as Partial<VectorStoreDialect> | undefined;
  if (typeof dialect?.name !== "string" || typeof dialect.filter !== "function" || typeof dialect.similarity !== "function") {
    throw new LookupKnowledgeError("INVALID_OPTION", `option vectorStore.dialect must have a name, filter and similarity; ${fix}.`);
  }
  if (!DIALECT_NAME.test(dialect.name)) throw new LookupKnowledgeError("INVALID_OPTION", "option vectorStore.dialect.name must be 1-64 of a-z, 0-9, _ and -, starting with a letter (it is saved in the manifest).");
  const namespace = given.namespace ?? DEFAULT_NAMESPACE;
  if (typeof namespace !== "string" || !NAMESPACE.test(namespace)) throw new LookupKnowledgeError("INVALID_OPTION", "option vectorStore.namespace must be 1-64 letters, digits, _, . or -.");
  if (embeddings === null) throw new LookupKnowledgeError("INVALID_OPTION", "option vectorStore needs embeddings for L1; leave embeddings out (the default embedder) or pass yours, not null.");
  dialect.attach?.(given.store as VectorStoreInterface);
  return { store: given.store as VectorStoreInterface, dialect: dialect as VectorStoreDialect, namespace };
}
