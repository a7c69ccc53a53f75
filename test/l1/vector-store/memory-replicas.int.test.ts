import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import { FakeEmbeddings } from "@langchain/core/utils/testing";
import { memoryDialect } from "../../../src/index.js";
import { describeReplicas } from "./replica-scenarios.js";

describeReplicas("LangChain's MemoryVectorStore", async () => {
  // One process: every "connection" is the same in-memory table.
  const store = new MemoryVectorStore(new FakeEmbeddings());
  return {
    connect: async () => ({ store, dialect: memoryDialect, close: async () => {} }),
    rowIds: async () => store.memoryVectors.map((row) => String(row.metadata.lk_id)).sort(),
    close: async () => {},
  };
});
