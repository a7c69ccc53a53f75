import { EnsembleRetriever } from "@langchain/classic/retrievers/ensemble";
import { BM25Retriever } from "@langchain/community/retrievers/bm25";
import { HNSWLib } from "@langchain/community/vectorstores/hnswlib";
import { Document } from "@langchain/core/documents";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { Chunk } from "../../src/index.js";
import type { BenchSystem, PreparedSystem } from "./bench-system.js";
import { timed } from "./bench-system.js";

/** Documents each retriever of the ensemble returns. */
export const ENSEMBLE_K = 10;

/**
 * LangChain's hybrid as a user would set it up: `EnsembleRetriever` (default weights, RRF c 60)
 * over `BM25Retriever` and an `HNSWLib` store (its own defaults), k 10 each. The store gets our
 * embeddings and the same document vectors (`addVectors`, which is what `fromDocuments` does after
 * embedding), so both sides use the same LSA space and the documents are not embedded twice.
 */
export async function createLangChainEnsemble(
  chunks: readonly Chunk[],
  vectors: readonly number[][],
  embeddings: EmbeddingsInterface,
): Promise<PreparedSystem> {
  const { value: ensemble, ms } = await timed(async () => {
    const docs = chunks.map(
      (chunk) =>
        new Document({ pageContent: `${chunk.title ?? ""}\n${chunk.content}`, metadata: { source: chunk.source } }),
    );
    const bm25 = BM25Retriever.fromDocuments(docs, { k: ENSEMBLE_K });
    const store = new HNSWLib(embeddings, { space: "cosine", numDimensions: vectors[0]?.length });
    await store.addVectors(
      vectors.map((vector) => [...vector]),
      docs,
    );
    return new EnsembleRetriever({ retrievers: [bm25, store.asRetriever(ENSEMBLE_K)] });
  });
  const system: BenchSystem = {
    id: "langchain_ensemble",
    label: "LangChain EnsembleRetriever (BM25Retriever + HNSWLib)",
    role: "baseline",
    run: (query) => ensemble.invoke(query.text),
  };
  return { system, setupMs: ms };
}
