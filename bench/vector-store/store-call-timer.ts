import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import type { StoreCallTimes } from "./sizing-spec.js";

/**
 * Times every `addVectors` and `delete` the knowledge base makes on `store`, by shadowing the two
 * methods on the instance (the dialect still reads the store's own fields). The figures are the
 * row-writing seconds of a build, measured around the store's calls.
 */
export function timeStoreCalls(store: VectorStoreInterface): StoreCallTimes {
  const times: StoreCallTimes = { addVectorsMs: 0, addVectorsCalls: 0, rowsWritten: 0, deleteMs: 0, deleteCalls: 0 };
  const addVectors = store.addVectors.bind(store);
  const remove = store.delete?.bind(store);
  const writable = store as { addVectors: typeof store.addVectors; delete?: typeof store.delete };
  writable.addVectors = async (vectors, documents, options) => {
    const start = performance.now();
    try {
      return await addVectors(vectors, documents, options);
    } finally {
      times.addVectorsMs += performance.now() - start;
      times.addVectorsCalls++;
      times.rowsWritten += vectors.length;
    }
  };
  if (remove) {
    writable.delete = async (params) => {
      const start = performance.now();
      try {
        return await remove(params);
      } finally {
        times.deleteMs += performance.now() - start;
        times.deleteCalls++;
      }
    };
  }
  return times;
}
