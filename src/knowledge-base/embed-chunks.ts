import type { EmbeddingsInterface } from "@langchain/core/embeddings";
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

/** Describes embeddings for the manifest and the fingerprint. */
export function describeEmbedder(embeddings: EmbeddingsInterface | null, dimensions: number | null): EmbedderInfo {
  if (embeddings === null) return { kind: "none", dimensions: null };
  if (embeddings instanceof LsaEmbeddings) return { kind: "statistical-lsa", dimensions: embeddings.dimensions };
  return { kind: "custom", name: embeddings.constructor.name, dimensions };
}

/**
 * Resolves the embeddings (the statistical default when omitted, none when null), embeds every
 * chunk in batches and builds the HNSW graph. An empty corpus gets no graph.
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

  const batchSize = Math.max(1, options.embedBatchSize ?? 64);
  const vectors: number[][] = [];
  for (let start = 0; start < texts.length; start += batchSize) {
    vectors.push(...(await embeddings.embedDocuments(texts.slice(start, start + batchSize))));
    progress({ phase: "embed", done: vectors.length, total: texts.length });
  }
  progress({ phase: "vectors", done: 0, total: chunks.length });
  const vectorIndex = VectorIndex.build(vectors, chunks.map((chunk) => chunk.meta.domain), options.hnsw);
  progress({ phase: "vectors", done: chunks.length, total: chunks.length });
  return { embeddings, vectorIndex, embedder: describeEmbedder(embeddings, vectorIndex.dimensions) };
}
