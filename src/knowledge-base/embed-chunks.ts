import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { LookupKnowledgeError } from "../errors.js";
import { embedInBatches } from "../l1/embeddings/embed-batches.js";
import { LsaEmbeddings } from "../l1/embeddings/index.js";
import type { VectorIndex } from "../l1/vector-index.js";
import { VectorIndexBuilder } from "../l1/vector-index-builder.js";
import { termBagsOf, type TermBags } from "../text/term-bags.js";
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

/** A dense build whose graph may still be building (in a worker) when the caller gets it. */
export interface StartedDenseBuild {
  embeddings: EmbeddingsInterface | null;
  embedder: EmbedderInfo;
  /**
   * The graph over the chunks, null for no L1 or an empty corpus. Await it: a failure of the
   * build (see `src/l1/hnsw-worker.ts`) rejects it.
   */
  vectorIndex: Promise<VectorIndex | null>;
}

/** Rows the statistical embedder writes per batch handed to the graph builder. */
const LSA_BATCH_ROWS = 4096;

/** Lets timers and I/O run between batches of synchronous work. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The graph promise, marked handled so that a failure before the caller awaits it is no crash. */
function pending(vectorIndex: Promise<VectorIndex | null>): Promise<VectorIndex | null> {
  vectorIndex.catch(() => undefined);
  return vectorIndex;
}

async function startLsaBuild(
  chunks: readonly Chunk[],
  texts: readonly string[],
  options: KnowledgeBaseOptions,
  given: TermBags | undefined,
  fitBags: TermBags | undefined,
): Promise<StartedDenseBuild> {
  const progress = options.onProgress ?? (() => {});
  if (given !== undefined && given.bags.length !== chunks.length) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `embedChunks got ${given.bags.length} term bags for ${chunks.length} chunks; pass termBagsOf(texts) of the same chunks.`,
    );
  }
  // One tokenization serves the fit and the embedding.
  const bags = given ?? termBagsOf(texts);
  progress({ phase: "fit", done: 0, total: 1 });
  const embeddings = LsaEmbeddings.fitBags(fitBags ?? bags, options.lsa);
  progress({ phase: "fit", done: 1, total: 1 });
  const embedder = describeEmbedder(embeddings, null);
  if (chunks.length === 0) return { embeddings, embedder, vectorIndex: Promise.resolve(null) };
  const d = embeddings.dimensions;
  const builder = VectorIndexBuilder.start(d, chunks.length, options.hnsw);
  try {
    // Each batch goes to the graph builder while the next one embeds.
    for (let start = 0; start < chunks.length; start += LSA_BATCH_ROWS) {
      const end = Math.min(start + LSA_BATCH_ROWS, chunks.length);
      const batch = new Float32Array((end - start) * d);
      for (let i = start; i < end; i++) embeddings.embedBagInto(bags.bags[i], bags.terms, batch, (i - start) * d);
      await builder.add(batch);
      progress({ phase: "embed", done: end, total: chunks.length });
      await yieldToEventLoop();
    }
  } catch (error) {
    await builder.abort();
    throw error;
  }
  return {
    embeddings,
    embedder: describeEmbedder(embeddings, d),
    vectorIndex: pending(finishGraph(builder, chunks, progress)),
  };
}

async function finishGraph(
  builder: VectorIndexBuilder,
  chunks: readonly Chunk[],
  progress: (event: { phase: "vectors"; done: number; total: number }) => void,
): Promise<VectorIndex> {
  progress({ phase: "vectors", done: 0, total: chunks.length });
  const vectorIndex = await builder.finish(chunks.map((chunk) => chunk.meta.domain));
  progress({ phase: "vectors", done: chunks.length, total: chunks.length });
  return vectorIndex;
}

async function startCustomBuild(
  chunks: readonly Chunk[],
  texts: readonly string[],
  options: KnowledgeBaseOptions,
  embeddings: EmbeddingsInterface,
): Promise<StartedDenseBuild> {
  if (chunks.length === 0)
    return { embeddings, embedder: describeEmbedder(embeddings, null), vectorIndex: Promise.resolve(null) };
  const graph: { builder: VectorIndexBuilder | null } = { builder: null };
  let dimensions: number | null;
  try {
    dimensions = await embedInBatches(embeddings, texts, chunks, options, null, async (rows, d) => {
      graph.builder ??= VectorIndexBuilder.start(d, chunks.length, options.hnsw);
      await graph.builder.add(rows);
    });
  } catch (error) {
    await graph.builder?.abort();
    throw error;
  }
  const builder = graph.builder;
  if (builder === null)
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `embedChunks got ${texts.length} texts for ${chunks.length} chunks.`,
    );
  const progress = options.onProgress ?? (() => {});
  return {
    embeddings,
    embedder: describeEmbedder(embeddings, dimensions),
    vectorIndex: pending(finishGraph(builder, chunks, progress)),
  };
}

/**
 * Resolves the embeddings (the statistical default when omitted, none when null), embeds every
 * chunk and starts the HNSW graph, returning once every vector is handed over: the graph builds
 * in a worker thread (from 1,000 chunks) while the caller does other work, such as the keyword
 * index, and embedding batches flow into it while later ones embed. An empty corpus gets no graph.
 *
 * The statistical default is fitted on and embeds from `bags` (`termBagsOf(texts)`, the same
 * chunks in the same order) without tokenizing again; without them the texts are tokenized once
 * here. Custom embeddings get the texts through `embedDocuments` in checked batches.
 * @throws LookupKnowledgeError naming the batch when the embeddings fail, hang or return garbage; nothing is built then.
 */
export async function startDenseBuild(
  chunks: readonly Chunk[],
  texts: readonly string[],
  options: KnowledgeBaseOptions,
  bags?: TermBags,
  fitBags?: TermBags,
): Promise<StartedDenseBuild> {
  if (options.embeddings === null)
    return { embeddings: null, embedder: describeEmbedder(null, null), vectorIndex: Promise.resolve(null) };
  if (options.embeddings === undefined) return startLsaBuild(chunks, texts, options, bags, fitBags);
  return startCustomBuild(chunks, texts, options, options.embeddings);
}

/**
 * {@link startDenseBuild} awaited to the end: embeddings, the finished graph and the manifest's
 * description of them.
 * @throws LookupKnowledgeError naming the batch when the embeddings fail, hang or return garbage; the graph build's failure. Nothing is built then.
 */
export async function embedChunks(
  chunks: readonly Chunk[],
  texts: readonly string[],
  options: KnowledgeBaseOptions,
  bags?: TermBags,
  fitBags?: TermBags,
): Promise<DenseParts> {
  const started = await startDenseBuild(chunks, texts, options, bags, fitBags);
  return { embeddings: started.embeddings, vectorIndex: await started.vectorIndex, embedder: started.embedder };
}
