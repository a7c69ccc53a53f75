import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { withDeadline } from "../../deadline.js";
import { errorMessage, LookupKnowledgeError } from "../../errors.js";
import type { Chunk } from "../../types.js";
import { checkedVector } from "../check-vector.js";

/** How texts are embedded in checked batches. */
export interface EmbedBatchOptions {
  /** Texts per `embedDocuments` call. @default 64 */
  embedBatchSize?: number;
  /** Milliseconds one `embedDocuments` call may take. @default 120000 */
  embedTimeoutMs?: number;
  /** Told after each batch: `done` of `total` texts embedded. */
  onProgress?: (progress: { phase: "embed"; done: number; total: number }) => void;
}

/** Default of {@link EmbedBatchOptions.embedBatchSize}. */
export const DEFAULT_EMBED_BATCH_SIZE = 64;
/** Default of {@link EmbedBatchOptions.embedTimeoutMs}. */
export const DEFAULT_EMBED_TIMEOUT_MS = 120_000;

/** A batch of texts as error messages name it: its number, its chunks and the first source. */
function batchName(batch: number, start: number, count: number, chunks: readonly Chunk[]): string {
  return `batch ${batch + 1} (chunks ${start + 1}-${start + count}, first "${chunks[start]?.source ?? "?"}")`;
}

/**
 * Embeds one batch within the deadline and checks that it holds exactly one usable vector per
 * text, all of the same length.
 * @throws LookupKnowledgeError `EMBEDDINGS_FAILED`, `EMBEDDINGS_TIMEOUT` or `EMBEDDINGS_INVALID`, naming the batch.
 */
async function embedBatch(
  embeddings: EmbeddingsInterface,
  texts: string[],
  name: string,
  timeoutMs: number,
  dimensions: number | null,
): Promise<number[][]> {
  let raw: unknown;
  try {
    raw = await withDeadline(() => embeddings.embedDocuments(texts), {
      timeoutMs,
      onTimeout: () =>
        new LookupKnowledgeError(
          "EMBEDDINGS_TIMEOUT",
          `embedDocuments did not answer ${name} within ${timeoutMs} ms; raise embedTimeoutMs or lower embedBatchSize.`,
        ),
    });
  } catch (error) {
    if (error instanceof LookupKnowledgeError) throw error;
    throw new LookupKnowledgeError("EMBEDDINGS_FAILED", `embedDocuments failed on ${name}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  const fix = "the embeddings must return one vector of finite numbers, not all zero, per text, all of one length";
  const invalid = (detail: string) => new LookupKnowledgeError("EMBEDDINGS_INVALID", `${detail}; ${fix}.`);
  // Each element is read once, by index: the list's own methods (map, iterator) are the embedder's.
  let items: unknown[];
  try {
    if (!Array.isArray(raw))
      throw invalid(`embedDocuments returned no list of vectors (${raw === null ? "null" : typeof raw}) for ${name}`);
    const count = raw.length;
    if (count !== texts.length)
      throw invalid(`embedDocuments returned ${count} vectors for ${texts.length} texts in ${name}`);
    items = Array.from({ length: count }, (_, i) => raw[i] as unknown);
  } catch (error) {
    throw error instanceof LookupKnowledgeError
      ? error
      : invalid(`the result of embedDocuments for ${name} cannot be read (${errorMessage(error)})`);
  }
  return items.map((value, i) => {
    const vector = checkedVector(value, dimensions);
    if (typeof vector === "string") throw invalid(`vector ${i + 1} of ${name} ${vector}`);
    dimensions ??= vector.length;
    return vector;
  });
}

/**
 * Embeds `texts` with custom embeddings in checked batches (see {@link embedBatch}), handing each
 * batch to `take` as one row-major Float32Array. `chunks[i]` is the chunk of `texts[i]`, for
 * error messages. @returns The vectors' length, or `dimensions` when there are no texts.
 */
export async function embedInBatches(
  embeddings: EmbeddingsInterface,
  texts: readonly string[],
  chunks: readonly Chunk[],
  options: EmbedBatchOptions,
  dimensions: number | null,
  take: (rows: Float32Array, dimensions: number) => Promise<void>,
): Promise<number | null> {
  const progress = options.onProgress ?? (() => {});
  const batchSize = options.embedBatchSize ?? DEFAULT_EMBED_BATCH_SIZE;
  const timeoutMs = options.embedTimeoutMs ?? DEFAULT_EMBED_TIMEOUT_MS;
  let length = dimensions;
  for (let start = 0, batch = 0; start < texts.length; start += batchSize, batch++) {
    const slice = texts.slice(start, start + batchSize);
    const vectors = await embedBatch(
      embeddings,
      slice,
      batchName(batch, start, slice.length, chunks),
      timeoutMs,
      length,
    );
    const d = (length ??= vectors[0].length);
    const rows = new Float32Array(vectors.length * d);
    vectors.forEach((vector, i) => rows.set(vector, i * d));
    await take(rows, d);
    progress({ phase: "embed", done: start + slice.length, total: texts.length });
  }
  return length;
}

/**
 * Embeds `texts` with custom embeddings in checked batches, as a build does, into one row-major
 * Float32Array (`texts.length × dimensions`): the `add.vectors` of an incremental
 * `VectorIndex.update`. `chunks[i]` is the chunk of `texts[i]` (error messages name it);
 * `dimensions`, when known (the index's), is required of every vector.
 * @throws LookupKnowledgeError `EMBEDDINGS_FAILED`, `EMBEDDINGS_TIMEOUT` or `EMBEDDINGS_INVALID`, naming the batch.
 */
export async function embedTexts(
  embeddings: EmbeddingsInterface,
  texts: readonly string[],
  chunks: readonly Chunk[],
  options: EmbedBatchOptions,
  dimensions: number | null,
): Promise<Float32Array> {
  const batches: Float32Array[] = [];
  const d = await embedInBatches(
    embeddings,
    texts,
    chunks,
    options,
    dimensions,
    async (rows) => void batches.push(rows),
  );
  const out = new Float32Array(texts.length * (d ?? 0));
  let at = 0;
  for (const rows of batches) {
    out.set(rows, at);
    at += rows.length;
  }
  return out;
}
