import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { TermCoverage } from "../l0/term-coverage.js";
import { tokenize } from "../text/tokenize.js";
import type { Candidate, Chunk } from "../types.js";
import type { VectorIndex } from "./vector-index.js";

/** Options of one L1 search. */
export interface L1SearchOptions {
  /** Only chunks of this domain, filtered inside the HNSW search. */
  domain: string | null;
  /** Neighbours to fetch. */
  k: number;
  /** Hits below this cosine similarity are dropped. */
  minScore: number;
}

/** The L1 layer as the graph sees it. */
export interface L1Searcher {
  search(query: string, options: L1SearchOptions): Promise<Candidate[]>;
}

/** Collaborators of {@link createL1Searcher}. */
export interface L1SearcherDeps {
  chunks: readonly Chunk[];
  vectorIndex: VectorIndex;
  embeddings: EmbeddingsInterface;
  /** Lexical coverage of the query by a chunk, recorded for the relevance assessment. @default none recorded */
  coverage?: TermCoverage;
}

/** L1: embeds the query and asks the HNSW graph for its nearest chunks. Errors propagate to the node. */
export function createL1Searcher({ chunks, vectorIndex, embeddings, coverage }: L1SearcherDeps): L1Searcher {
  return {
    async search(query, { domain, k, minScore }) {
      const vector = await embeddings.embedQuery(query);
      if (vector.length !== vectorIndex.dimensions) {
        throw new Error(`query embedding has ${vector.length} dimensions but the index has ${vectorIndex.dimensions}; use the embeddings the index was built with`);
      }
      const queryTerms = coverage ? tokenize(query) : [];
      return vectorIndex
        .search(vector, k, domain)
        .filter((hit) => hit.similarity >= minScore)
        .map((hit) => ({
          id: hit.id,
          chunk: chunks[hit.id],
          score: hit.similarity,
          ...(coverage ? { coverage: coverage(queryTerms, hit.id) } : {}),
          hitReasons: [`L1:similarity:${hit.similarity.toFixed(2)}`, ...(domain !== null ? [`L1:domain_filter:${domain}`] : [])],
        }));
    },
  };
}
