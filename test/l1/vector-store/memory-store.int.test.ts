import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import { FakeEmbeddings } from "@langchain/core/utils/testing";
import { memoryDialect } from "../../../src/index.js";
import { describeStoreBackedL1 } from "./store-scenarios.js";

describeStoreBackedL1("LangChain's MemoryVectorStore", async () => {
  const store = new MemoryVectorStore(new FakeEmbeddings());
  return {
    store,
    dialect: memoryDialect,
    rowIds: async () => store.memoryVectors.map((row) => String(row.metadata.lk_id)).sort(),
    close: async () => {},
  };
});
