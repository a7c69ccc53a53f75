import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { errorMessage, LookupKnowledgeError } from "../errors.js";
import { checkedVector } from "../l1/check-vector.js";
import { withDeadline } from "../l1/deadline.js";
import { LsaEmbeddings } from "../l1/embeddings/index.js";
import { VectorIndex } from "../l1/vector-index.js";
import type { Chunk } from "../types.js";
import type { KnowledgeBaseOptions } from "./build-options.js";
import type { EmbedderInfo } from "./manifest.js";

/** What L1 needs: the embeddings, the graph over the chunks, and how to describe them in a manifest. */
export interface DenseParts {
  embeddings: EmbeddingsInterface | null;
  vectorIndex: VectorIndex | null;
  embedder: EmbedderInfo;
}

/** Default of {@link KnowledgeBaseOptions.embedBatchSize}. */
export const DEFAULT_EMBED_BATCH_SIZE = 64;
/** Default of {@link KnowledgeBaseOptions.embedTimeoutMs}. */
export const DEFAULT_EMBED_TIMEOUT_MS = 120_000;

/** Describes embeddings for the manifest and the fingerprint. */
export function describeEmbedder(embeddings: EmbeddingsInterface | null, dimensions: number | null): EmbedderInfo {
  if (embeddings === null) return { kind: "none", dimensions: null };
  if (embeddings instanceof LsaEmbeddings) return { kind: "statistical-lsa", dimensions: embeddings.dimensions };
  return { kind: "custom", name: embeddings.constructor.name, dimensions };
}

/** A batch of texts as error messages name it: its number, its chunks and the first source. */
function batchName(batch: number, start: number, count: number, chunks: readonly Chunk[]): string {
  return `batch ${batch + 1} (chunks ${start + 1}-${start + count}, first "${chunks[start]?.source ?? "?"}")`;
}

/**
 * Embeds one batch within the deadline and checks that it holds exactly one usable vector per
 * text, all of the same length.
 * @throws LookupKnowledgeError `EMBEDDINGS_FAILED`, `EMBEDDINGS_TIMEOUT` or `EMBEDDINGS_INVALID`, naming the batch.
 */
async function embedBatch(embeddings: EmbeddingsInterface, texts: string[], name: string, timeoutMs: number, dimensions: number | null): Promise<number[][]> {
  let raw: unknown;
  try {
    raw = await withDeadline(() => embeddings.embedDocuments(texts), {
      timeoutMs,
      onTimeout: () => new LookupKnowledgeError("EMBEDDINGS_TIMEOUT", `embedDocuments did not answer ${name} within ${timeoutMs} ms; raise embedTimeoutMs or lower embedBatchSize.`),
    });
  } catch (error) {
    if (error instanceof LookupKnowledgeError) throw error;
    throw new LookupKnowledgeError("EMBEDDINGS_FAILED", `embedDocuments failed on ${name}: ${errorMessage(error)}`, { cause: error });
  }
  const fix = "the embeddings must return one vector of finite numbers, not all zero, per text, all of one length";
  const invalid = (detail: string) => new LookupKnowledgeError("EMBEDDINGS_INVALID", `${detail}; ${fix}.`);
  // Each element is read once, by index: the list's own methods (map, iterator) are the embedder's.
  let items: unknown[];
  try {
    if (!Array.isArray(raw)) throw invalid(`embedDocuments returned no list of vectors (${raw === null ? "null" : typeof raw}) for ${name}`);
    const count = raw.length;
    if (count !== texts.length) throw invalid(`embedDocuments returned ${count} vectors for ${texts.length} texts in ${name}`);
    items = Array.from({ length: count }, (_, i) => raw[i] as unknown);
  } catch (error) {
    throw error instanceof LookupKnowledgeError ? error : invalid(`the result of embedDocuments for ${name} cannot be read (${errorMessage(error)})`);
  }
  return items.map((value, i) => {
    const vector = checkedVector(value, dimensions);
    if (typeof vector === "string") throw invalid(`vector ${i + 1} of ${name} ${vector}`);
    dimensions ??= vector.length;
    return vector;
  });
}

/**
 * Resolves the embeddings (the statistical default when omitted, none when null), embeds every
 * chunk in checked batches and builds the HNSW graph. An empty corpus gets no graph.
 * @throws LookupKnowledgeError naming the batch when the embeddings fail, hang or return garbage; nothing is built then.
 */
export async function embedChunks(chunks: readonly Chunk[], texts: readonly string[], options: KnowledgeBaseOptions): Promise<DenseParts> {
  if (options.embeddings === null) return { embeddings: null, vectorIndex: null, embedder: describeEmbedder(null, null) };
  const progress = options.onProgress ?? (() => {});
  let embeddings: EmbeddingsInterface;
  if (options.embeddings === undefined) {
    progress({ phase: "fit", done: 0, total: 1 });
    embeddings = LsaEmbeddings.fit(texts, options.lsa);
    progress({ phase: "fit", done: 1, total: 1 });
  } else {
    embeddings = options.embeddings;
  }
  if (chunks.length === 0) return { embeddings, vectorIndex: null, embedder: describeEmbedder(embeddings, null) };

  const batchSize = options.embedBatchSize ?? DEFAULT_EMBED_BATCH_SIZE;
  const timeoutMs = options.embedTimeoutMs ?? DEFAULT_EMBED_TIMEOUT_MS;
  const vectors: number[][] = [];
  for (let start = 0, batch = 0; start < texts.length; start += batchSize, batch++) {
    const slice = texts.slice(start, start + batchSize);
    const dimensions = vectors[0]?.length ?? null;
    vectors.push(...(await embedBatch(embeddings, slice, batchName(batch, start, slice.length, chunks), timeoutMs, dimensions)));
    progress({ phase: "embed", done: vectors.length, total: texts.length });
  }
  progress({ phase: "vectors", done: 0, total: chunks.length });
  const vectorIndex = VectorIndex.build(vectors, chunks.map((chunk) => chunk.meta.domain), options.hnsw);
  progress({ phase: "vectors", done: chunks.length, total: chunks.length });
  return { embeddings, vectorIndex, embedder: describeEmbedder(embeddings, vectorIndex.dimensions) };
}
