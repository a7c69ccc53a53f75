import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import { admits } from "../../access/chunk-filter.js";
import { errorDetail, LookupKnowledgeError } from "../../errors.js";
import type { TermCoverage } from "../../l0/term-coverage.js";
import { tokenize } from "../../text/tokenize.js";
import type { Candidate, Chunk } from "../../types.js";
import { withDeadline } from "../../deadline.js";
import { embedQueryChecked, type L1Searcher } from "../l1-search.js";
import { ROW_ID_KEY, type RowScope, type VectorStoreDialect } from "./vector-store-dialect.js";

/** Collaborators of {@link createVectorStoreL1Searcher}. */
export interface VectorStoreL1Deps {
  /** The LangChain vector store that holds one row per chunk (written by a build or update). */
  store: VectorStoreInterface;
  /** How `store` filters rows and scores hits. */
  dialect: VectorStoreDialect;
  /** The knowledge base's chunks; hits map back to them through their row id, never by position. */
  chunks: readonly Chunk[];
  /** Row id → chunk number, for the rows of the current chunks; a row of another id is skipped. */
  chunkOfRow: ReadonlyMap<string, number>;
  /**
   * The knowledge base's rows, which every search filters on: its namespace and current
   * generation, and the revision and row ids that keep other commits' rows out (see `RowScope`);
   * a function is read at each search.
   */
  rows: SearchedRows | (() => SearchedRows);
  /** Embeddings of the query, the ones the rows were embedded with. */
  embeddings: EmbeddingsInterface;
  /** Length of the rows' vectors: a query vector of another length fails the search with `EMBEDDINGS_INVALID`. */
  dimensions: number;
  /** Lexical coverage of the query by a chunk, for the relevance assessment. @default none recorded */
  coverage?: TermCoverage;
}

/** The part of a {@link RowScope} that is the same for every search of one knowledge base. */
export type SearchedRows = Pick<RowScope, "namespace" | "generation" | "revision" | "exclude">;

/** Milliseconds left of a deadline started at `started`; `0` (no deadline) stays `0`. */
function remainingMs(timeoutMs: number, started: number): number {
  return timeoutMs > 0 ? Math.max(1, timeoutMs - (Date.now() - started)) : 0;
}

/** The hits a store returned, read defensively: it is an outside service. */
function hitsOf(raw: unknown): [unknown, unknown][] {
  if (!Array.isArray(raw))
    // eslint-disable-next-line no-restricted-syntax -- the search below wraps it into VECTOR_STORE_FAILED
    throw new Error(
      `the store returned ${raw === null ? "null" : typeof raw} instead of a list of [document, score] pairs`,
    );
  return raw.filter((hit): hit is [unknown, unknown] => Array.isArray(hit) && hit.length >= 2);
}

/**
 * L1 on any LangChain vector store: embeds the query (checked, within the deadline, as for
 * HNSW), asks the store for its nearest rows with the domain filter inside the search, turns
 * scores into similarities through the dialect, and maps rows back to chunks by their `lk_id`.
 * A store that throws, hangs past `timeoutMs` or answers garbage raises `VECTOR_STORE_FAILED`
 * or `VECTOR_STORE_TIMEOUT`; the L1 node records it and the lookup answers from L0.
 */
export function createVectorStoreL1Searcher({
  store,
  dialect,
  chunks,
  chunkOfRow,
  rows,
  embeddings,
  dimensions,
  coverage,
}: VectorStoreL1Deps): L1Searcher {
  return {
    async search(
      query,
      { domain, filter = null, rowKeys = null, k, minScore, timeoutMs = 0, signal, onQueryEmbedded },
    ) {
      if ((filter !== null && filter.size === 0) || (rowKeys !== null && rowKeys.length === 0)) return [];
      const started = Date.now();
      const vector = await embedQueryChecked(embeddings, query, dimensions, { timeoutMs, signal, onQueryEmbedded });
      const left = remainingMs(timeoutMs, started);
      let raw: unknown;
      try {
        raw = await withDeadline(
          async () =>
            store.similaritySearchVectorWithScore(
              vector,
              k,
              dialect.filter({
                ...(typeof rows === "function" ? rows() : rows),
                domain,
                access: rowKeys === null ? null : [...rowKeys],
              }) as never,
            ),
          {
            timeoutMs: left,
            signal,
            onTimeout: () =>
              new LookupKnowledgeError(
                "VECTOR_STORE_TIMEOUT",
                `the ${dialect.name} vector store did not answer within ${timeoutMs} ms; check the database, or raise l1.timeoutMs.`,
              ),
          },
        );
      } catch (error) {
        if (signal?.aborted || error instanceof LookupKnowledgeError) throw error;
        throw new LookupKnowledgeError(
          "VECTOR_STORE_FAILED",
          `the ${dialect.name} vector store failed: ${errorDetail(error)}`,
          { cause: error },
        );
      }
      let hits: [unknown, unknown][];
      try {
        hits = hitsOf(raw);
      } catch (error) {
        throw new LookupKnowledgeError(
          "VECTOR_STORE_FAILED",
          `the ${dialect.name} vector store answered garbage: ${errorDetail(error)}`,
        );
      }
      const queryTerms = coverage ? tokenize(query) : [];
      const seen = new Set<number>();
      const candidates: Candidate[] = [];
      for (const [doc, score] of hits) {
        const metadata = (doc as { metadata?: unknown } | null)?.metadata;
        const rowId =
          typeof metadata === "object" && metadata !== null
            ? (metadata as Record<string, unknown>)[ROW_ID_KEY]
            : undefined;
        const id = typeof rowId === "string" ? chunkOfRow.get(rowId) : undefined;
        if (id === undefined || seen.has(id) || typeof score !== "number" || !Number.isFinite(score)) continue;
        // A store whose filter let another domain or another audience's rows through still keeps the L1 contract.
        if ((domain !== null && chunks[id].meta.domain !== domain) || !admits(filter, id)) continue;
        const similarity = dialect.similarity(score, store);
        // A cosine outside [-1, 1] is a score the dialect misreads: garbage, not a strong match.
        if (!Number.isFinite(similarity) || similarity > 1 + 1e-6 || similarity < -1 - 1e-6 || similarity < minScore)
          continue;
        seen.add(id);
        candidates.push({
          id,
          chunk: chunks[id],
          score: similarity,
          ...(coverage ? { coverage: coverage(queryTerms, id) } : {}),
          hitReasons: [
            `L1:similarity:${similarity.toFixed(2)}`,
            ...(domain !== null ? [`L1:domain_filter:${domain}`] : []),
          ],
        });
      }
      return candidates.sort((a, b) => b.score - a.score);
    },
  };
}
