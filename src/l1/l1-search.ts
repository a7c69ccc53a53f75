import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { admits, type ChunkFilter } from "../access/chunk-filter.js";
import { errorDetail, LookupKnowledgeError } from "../errors.js";
import type { TermCoverage } from "../l0/term-coverage.js";
import { tokenize } from "../text/tokenize.js";
import type { Candidate, Chunk } from "../types.js";
import { checkedVector } from "./check-vector.js";
import { withDeadline } from "../deadline.js";
import type { VectorIndex } from "./vector-index.js";

/** Options of one L1 search. */
export interface L1SearchOptions {
  /** Only chunks of this domain, filtered inside the HNSW search. */
  domain: string | null;
  /**
   * The chunks the lookup may see (its access scope and `domain` together), decided before the
   * search: a searcher returns only chunks it admits, and sizes its plan by it (an exact scan of
   * a small set). Null or absent: `domain` alone filters. @default null
   */
  filter?: ChunkFilter | null;
  /**
   * For a vector store: the `lk_acl` keys of the rows the access scope may read, put into the
   * store's own filter; null or absent for an unscoped lookup. @default null
   */
  rowKeys?: readonly string[] | null;
  /** Neighbours to fetch. */
  k: number;
  /** Hits below this cosine similarity are dropped. */
  minScore: number;
  /** Milliseconds the query embedding may take; `0` waits forever. @default 0 */
  timeoutMs?: number;
  /** Aborts the search (the agent run was cancelled); the abort reason is thrown. @default none */
  signal?: AbortSignal;
  /**
   * Called once, when the query vector is ready (embedded and checked) and before the
   * nearest-neighbour search: the L1 node times the embedding (`timings.embedMs`) and the search
   * (`timings.l1Ms`) apart with it. A searcher that never calls it has its whole call counted
   * as search. @default none
   */
  onQueryEmbedded?: () => void;
}

/** The L1 layer as the graph sees it. */
export interface L1Searcher {
  /**
   * Embeds `query` and returns its nearest chunks among those `options` admit, at most `k`, with
   * similarity at least `minScore`, closest first; rejects when the embedding or the search fails.
   */
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

/**
 * `embedQuery` as called here: the signal goes along as a second argument, which embeddings that
 * accept one use to cancel their request and all others ignore.
 */
type AbortableEmbedQuery = (text: string, options: { signal: AbortSignal }) => Promise<unknown>;

/**
 * Embeds a query within the deadline and checks the vector before hnswlib sees it.
 * @throws LookupKnowledgeError `EMBEDDINGS_FAILED`, `EMBEDDINGS_TIMEOUT` or `EMBEDDINGS_INVALID`; the caller's abort reason when it aborted.
 */
export async function embedQueryChecked(
  embeddings: EmbeddingsInterface,
  query: string,
  dimensions: number,
  options: Pick<L1SearchOptions, "timeoutMs" | "signal" | "onQueryEmbedded">,
): Promise<number[]> {
  const timeoutMs = options.timeoutMs ?? 0;
  const embedQuery = embeddings.embedQuery.bind(embeddings) as unknown as AbortableEmbedQuery;
  let raw: unknown;
  try {
    raw = await withDeadline((signal) => embedQuery(query, { signal }), {
      timeoutMs,
      signal: options.signal,
      onTimeout: () =>
        new LookupKnowledgeError(
          "EMBEDDINGS_TIMEOUT",
          `the query embedding did not answer within ${timeoutMs} ms; raise l1.timeoutMs if your embeddings are this slow.`,
        ),
    });
  } catch (error) {
    if (options.signal?.aborted || error instanceof LookupKnowledgeError) throw error;
    throw new LookupKnowledgeError("EMBEDDINGS_FAILED", `the query embedding failed: ${errorDetail(error)}`, {
      cause: error,
    });
  }
  const vector = checkedVector(raw, dimensions);
  if (typeof vector === "string") {
    throw new LookupKnowledgeError(
      "EMBEDDINGS_INVALID",
      `the query embedding ${vector}; pass the embeddings the index was built with, and check that they return one vector of finite numbers per text.`,
    );
  }
  options.onQueryEmbedded?.();
  return vector;
}

/** L1: embeds the query and asks the HNSW graph for its nearest chunks. Errors propagate to the node. */
export function createL1Searcher({ chunks, vectorIndex, embeddings, coverage }: L1SearcherDeps): L1Searcher {
  return {
    async search(query, { domain, filter = null, k, minScore, timeoutMs, signal, onQueryEmbedded }) {
      if (filter !== null && filter.size === 0) return [];
      const vector = await embedQueryChecked(embeddings, query, vectorIndex.dimensions, {
        timeoutMs,
        signal,
        onQueryEmbedded,
      });
      const queryTerms = coverage ? tokenize(query) : [];
      return vectorIndex
        .search(vector, k, filter ?? domain)
        .filter((hit) => hit.similarity >= minScore && admits(filter, hit.id))
        .map((hit) => ({
          id: hit.id,
          chunk: chunks[hit.id],
          score: hit.similarity,
          ...(coverage ? { coverage: coverage(queryTerms, hit.id) } : {}),
          hitReasons: [
            `L1:similarity:${hit.similarity.toFixed(2)}`,
            ...(domain !== null ? [`L1:domain_filter:${domain}`] : []),
          ],
        }));
    },
  };
}
