/**
 * The access leak scenarios of leak-scenarios.ts over a knowledge base built from LangChain
 * documents (`KnowledgeBase.fromDocuments`) whose groups come from metadata, and synced
 * (`syncDocuments`) for the update that changes two documents' access; L1 in the HNSW graph.
 */
import { describeLeakSuite } from "./leak-scenarios.js";

describeLeakSuite({
  name: "the in-process HNSW graph, over LangChain documents with access in metadata",
  source: "documents",
  async open() {
    return { vectorStore: () => undefined, close: async () => {} };
  },
});
