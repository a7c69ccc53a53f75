import type { DocumentInterface } from "@langchain/core/documents";
import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import {
  ROW_ACCESS_KEY,
  ROW_GENERATION_KEY,
  ROW_ID_KEY,
  ROW_NAMESPACE_KEY,
  ROW_REVISION_KEY,
  type VectorStoreDialect,
} from "./vector-store-dialect.js";

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
  filter: ({ namespace, generation, domain, access, revision, exclude }) => {
    const excluded = new Set(exclude ?? []);
    return (doc: DocumentInterface) =>
      doc.metadata[ROW_NAMESPACE_KEY] === namespace &&
      doc.metadata[ROW_GENERATION_KEY] === generation &&
      (domain === null || doc.metadata.domain === domain) &&
      (access == null || access.includes(doc.metadata[ROW_ACCESS_KEY] as string)) &&
      (revision == null ||
        (typeof doc.metadata[ROW_REVISION_KEY] === "number" && doc.metadata[ROW_REVISION_KEY] <= revision)) &&
      !excluded.has(doc.metadata[ROW_ID_KEY] as string);
  },
  similarity: (score) => score,
  async deleteIds(store: VectorStoreInterface, ids: string[]) {
    const gone = new Set(ids);
    const rows = store as unknown as MemoryRows;
    rows.memoryVectors = rows.memoryVectors.filter((row) => !gone.has(String(row.metadata[ROW_ID_KEY])));
  },
  async deleteOtherGenerations(store: VectorStoreInterface, { namespace, generation, keep = [] }) {
    const rows = store as unknown as MemoryRows;
    const kept = new Set([generation, ...keep]);
    rows.memoryVectors = rows.memoryVectors.filter(
      (row) => row.metadata[ROW_NAMESPACE_KEY] !== namespace || kept.has(row.metadata[ROW_GENERATION_KEY] as string),
    );
  },
};
