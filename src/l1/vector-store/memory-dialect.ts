import type { DocumentInterface } from "@langchain/core/documents";
import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import { ROW_ID_KEY, ROW_KIND, ROW_KIND_KEY, type VectorStoreDialect } from "./vector-store-dialect.js";

/** The field of `MemoryVectorStore` this dialect edits. */
interface MemoryRows {
  memoryVectors: { metadata: Record<string, unknown> }[];
}

/**
 * `MemoryVectorStore` (`@langchain/classic/vectorstores/memory`): filters are functions of the
 * document, scores are cosine similarities already, and rows are deleted from its array (it has no
 * `delete`). For tests and single-process apps.
 */
export const memoryDialect: VectorStoreDialect = {
  name: "memory",
  domainFilter: (domain) => (doc: DocumentInterface) => doc.metadata.domain === domain,
  similarity: (score) => score,
  async deleteIds(store: VectorStoreInterface, ids: string[]) {
    const gone = new Set(ids);
    const rows = store as unknown as MemoryRows;
    rows.memoryVectors = rows.memoryVectors.filter((row) => !gone.has(String(row.metadata[ROW_ID_KEY])));
  },
  async clear(store: VectorStoreInterface) {
    const rows = store as unknown as MemoryRows;
    rows.memoryVectors = rows.memoryVectors.filter((row) => row.metadata[ROW_KIND_KEY] !== ROW_KIND);
  },
};
