import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import { GraphWorker } from "../../src/l1/hnsw-worker.js";

const JOB = {
  dimensions: 4,
  capacity: 8,
  m: 16,
  efConstruction: 50,
  randomSeed: 100,
  firstLabel: 0,
  extend: false,
  deleteLabels: new Int32Array(0),
};

async function failure(promise: Promise<unknown>): Promise<LookupKnowledgeError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LookupKnowledgeError);
  return error as LookupKnowledgeError;
}

describe("GraphWorker", () => {
  it("builds a graph in a worker and hands it back through a private scratch file that it removes", async () => {
    const worker = await GraphWorker.create();
    const scratch = worker.inputFile.replace(/\/input\.hnsw$/, "");
    try {
      worker.run(JOB);
      worker.add(Float32Array.from([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]));
      const index = await worker.finish(4);
      expect(index.getCurrentCount()).toBe(3);
      expect(index.searchKnn([0, 1, 0, 0], 1).neighbors).toEqual([1]);
    } finally {
      await worker.dispose();
    }
    expect(existsSync(scratch)).toBe(false);
  });

  it("turns an exception inside the worker into a LookupKnowledgeError that names it", async () => {
    const worker = await GraphWorker.create();
    try {
      // Nothing was written to extend, so hnswlib throws in the worker.
      worker.run({ ...JOB, extend: true });
      const error = await failure(worker.finish(4));
      expect(error.code).toBe("INDEX_BUILD_FAILED");
      expect(error.message).toMatch(/HNSW build worker failed .*the vector index was not built/);
    } finally {
      await worker.dispose();
    }
  });

  it("turns a worker that stops before finishing into a LookupKnowledgeError with its exit code", async () => {
    const worker = await GraphWorker.create();
    worker.run(JOB);
    await worker.dispose();
    const error = await failure(worker.finish(4));
    expect(error.message).toMatch(/HNSW build worker stopped with exit code \d+ before finishing/);
  });
});
