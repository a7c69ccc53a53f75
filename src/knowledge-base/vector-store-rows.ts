import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import { createHash, randomBytes } from "node:crypto";
import { errorDetail, LookupKnowledgeError } from "../errors.js";
import { captureConsole } from "../console-capture.js";
import { withDeadline } from "../deadline.js";
import { accessKeyOf } from "../access/access-key.js";
import {
  deleteRows,
  ROW_ACCESS_KEY,
  ROW_GENERATION_KEY,
  ROW_ID_KEY,
  ROW_KIND,
  ROW_KIND_KEY,
  ROW_NAMESPACE_KEY,
  ROW_REVISION_KEY,
  type VectorStoreDialect,
} from "../l1/vector-store/vector-store-dialect.js";
import type { Chunk } from "../types.js";
import { contentDigest } from "./content-digest.js";
import type { EmbedderInfo } from "./manifest.js";
import { MAX_DEFAULT_DIMENSIONS } from "../l1/embeddings/lsa-fit.js";

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
 * embeds, title, domain and access label, the content, and the embedder), so that an unchanged chunk keeps its
 * row across updates, any change gets a new row, and no two knowledge bases or generations share
 * an id (UUID-shaped because pgvector's id column is a `uuid`).
 */
export function rowIdOf(chunk: Chunk, embedder: EmbedderInfo, rows: RowSet): string {
  const hash = createHash("sha256");
  const { meta } = chunk;
  const fields: unknown[] = [
    rows.namespace,
    rows.generation,
    chunk.source,
    chunk.breadcrumb,
    meta.title ?? null,
    meta.domain ?? null,
    meta.keywords,
    meta.aliases,
    meta.entities,
    embedder.kind,
    embedder.name ?? null,
    embedder.dimensions,
  ];
  // Only labelled chunks add their label, so that the rows of unlabelled chunks keep the ids they had before access labels.
  if (meta.access !== undefined) fields.push(accessKeyOf(meta.access));
  hash.update(JSON.stringify(fields));
  hash.update(contentDigest(chunk));
  const hex = hash.digest("hex");
  // Version 4 / variant 1 bits, as Postgres and most stores accept any well-formed UUID.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Row id → chunk number for `chunks`. */
export function chunkOfRowMap(chunks: readonly Chunk[], embedder: EmbedderInfo, rows: RowSet): Map<string, number> {
  return new Map(chunks.map((chunk, i) => [rowIdOf(chunk, embedder, rows), i]));
}

/** How a sync writes: rows per `addVectors` call, the time one store call may take, and where what the store prints goes. */
export interface RowWriteLimits {
  batchSize: number;
  timeoutMs: number;
  /** The caller's `onWarning`: gets what the store prints during a call that succeeds (see {@link storeCall}). */
  onWarning?: (message: string) => void;
}

/** Most characters of a line a store printed that a warning shows. */
const MAX_PRINTED_CHARS = 300;

/** Rows to write: chunk numbers into `chunks`, with their vectors (row-major, `dimensions` each). */
export interface RowAdditions {
  chunkIds: readonly number[];
  vectors: Float32Array;
  dimensions: number;
  /** True for a new generation, whose ids no store holds yet; false deletes each id before writing it (a killed sync may have left it). */
  fresh: boolean;
}

/**
 * Runs one store call within the deadline. What the store prints through the console meanwhile
 * (LangChain's `PGVectorStore.addVectors` prints a failed insert before throwing it) never reaches
 * the console: when the call succeeds, each line goes to `onWarning`; when it fails, the error
 * thrown says it.
 * @throws LookupKnowledgeError `VECTOR_STORE_FAILED` / `VECTOR_STORE_TIMEOUT` naming `step`.
 */
export async function storeCall(
  dialect: VectorStoreDialect,
  step: string,
  limits: Pick<RowWriteLimits, "timeoutMs" | "onWarning">,
  call: () => Promise<unknown>,
): Promise<void> {
  const { timeoutMs, onWarning } = limits;
  const printed: string[] = [];
  try {
    // Captured until the deadline, not until a call given up on ends: no capture outlives storeCall.
    await captureConsole(
      () =>
        withDeadline(async () => call(), {
          timeoutMs,
          onTimeout: () =>
            new LookupKnowledgeError(
              "VECTOR_STORE_TIMEOUT",
              `the ${dialect.name} vector store did not ${step} within ${timeoutMs} ms; check the database, or raise embedTimeoutMs.`,
            ),
        }),
      (line) => void printed.push(line),
    );
  } catch (error) {
    if (error instanceof LookupKnowledgeError) throw error;
    throw new LookupKnowledgeError(
      "VECTOR_STORE_FAILED",
      `the ${dialect.name} vector store could not ${step}: ${errorDetail(error)}`,
      { cause: error },
    );
  }
  for (const line of printed) {
    const shown = line.length > MAX_PRINTED_CHARS ? `${line.slice(0, MAX_PRINTED_CHARS)}…` : line;
    onWarning?.(`lookup-knowledge: the ${dialect.name} vector store printed while asked to ${step}: ${shown}`);
  }
}

/**
 * Writes the rows of `add` in batches. Nothing is deleted here: rows of removed chunks and of
 * other generations are deleted once a save has committed the index that no longer needs them
 * ({@link pruneRows}), so a sync killed at any point leaves the saved index's rows whole.
 * @throws LookupKnowledgeError `VECTOR_STORE_FAILED` or `VECTOR_STORE_TIMEOUT` naming the step.
 */
export async function writeRows(
  store: VectorStoreInterface,
  dialect: VectorStoreDialect,
  chunks: readonly Chunk[],
  embedder: EmbedderInfo,
  rows: RowSet & { revision?: number | null },
  add: RowAdditions,
  limits: RowWriteLimits,
  onProgress?: (done: number, total: number) => void,
): Promise<void> {
  const { chunkIds, vectors, dimensions } = add;
  // The default embedder's length changes with the corpus until it reaches its full one.
  const final = embedder.kind !== "statistical-lsa" || dimensions >= MAX_DEFAULT_DIMENSIONS;
  const prepare = dialect.prepare?.bind(dialect);
  if (prepare !== undefined && chunkIds.length > 0)
    await storeCall(dialect, "prepare its table", limits, () => prepare(store, { dimensions, final }));
  for (let start = 0; start < chunkIds.length; start += limits.batchSize) {
    const ids = chunkIds.slice(start, start + limits.batchSize);
    const rowIds = ids.map((id) => rowIdOf(chunks[id], embedder, rows));
    const vectorsOfBatch = ids.map((_, i) =>
      Array.from(vectors.subarray((start + i) * dimensions, (start + i + 1) * dimensions)),
    );
    const docs = ids.map((id, i) => ({
      pageContent: chunks[id].content,
      metadata: {
        [ROW_KIND_KEY]: ROW_KIND,
        [ROW_NAMESPACE_KEY]: rows.namespace,
        [ROW_GENERATION_KEY]: rows.generation,
        [ROW_ID_KEY]: rowIds[i],
        ...(rows.revision == null ? {} : { [ROW_REVISION_KEY]: rows.revision }),
        [ROW_ACCESS_KEY]: accessKeyOf(chunks[id].meta.access),
        source: chunks[id].source,
        title: chunks[id].meta.title ?? null,
        domain: chunks[id].meta.domain ?? null,
      },
      id: rowIds[i],
    }));
    const span = `rows ${start + 1}-${start + ids.length}`;
    if (!add.fresh) await storeCall(dialect, `replace ${span}`, limits, () => deleteRows(store, dialect, rowIds));
    await storeCall(dialect, `add ${span}`, limits, () => store.addVectors(vectorsOfBatch, docs, { ids: rowIds }));
    onProgress?.(start + ids.length, chunkIds.length);
  }
}

/**
 * Deletes what a committed index no longer needs: the rows `pending` lists (chunks an update
 * changed or removed) and the rows of the namespace's other generations but `rows.keep` (those
 * replicas of earlier commits may still read). @returns whether the
 * pending rows are gone, and a warning line for the save's `onWarning` when something could not
 * be deleted (the next save tries again).
 */
export async function pruneRows(
  store: VectorStoreInterface,
  dialect: VectorStoreDialect,
  rows: RowSet & { keep?: readonly string[] },
  pending: readonly string[],
  limits: RowWriteLimits,
): Promise<{ pendingDeleted: boolean; warning: string | null }> {
  const failed = (error: unknown) =>
    `lookup-knowledge: the index is saved, but ${errorDetail(error)}; those rows are never returned, and the next save deletes them.`;
  try {
    for (let start = 0; start < pending.length; start += limits.batchSize) {
      const ids = pending.slice(start, start + limits.batchSize);
      await storeCall(dialect, `delete ${ids.length} old rows`, limits, () => deleteRows(store, dialect, [...ids]));
    }
  } catch (error) {
    return { pendingDeleted: false, warning: failed(error) };
  }
  const other = dialect.deleteOtherGenerations?.bind(dialect);
  if (other === undefined)
    return {
      pendingDeleted: true,
      warning: `lookup-knowledge: the ${dialect.name} dialect has no deleteOtherGenerations, so rows of earlier builds stay in the store (never returned: lookups filter on the generation).`,
    };
  try {
    await storeCall(dialect, "delete the rows of earlier builds", limits, () => other(store, rows));
    return { pendingDeleted: true, warning: null };
  } catch (error) {
    return { pendingDeleted: true, warning: failed(error) };
  }
}
