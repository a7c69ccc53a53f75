import { describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import { planLabelMapUpdate, type VectorIndexUpdate } from "../../src/l1/label-map-update.js";
import { labelOfChunks } from "../../src/l1/vector-labels.js";

const D = 2;
/** Labels 0..3; label 1 already deleted; labels 0, 2, 3 hold chunks 0, 1, 2. */
const MAP = Int32Array.from([0, -1, 1, 2]);
const LIVE = 3;

function failure(change: VectorIndexUpdate): string {
  try {
    planLabelMapUpdate(MAP, LIVE, D, change);
  } catch (error) {
    expect(error).toBeInstanceOf(LookupKnowledgeError);
    expect((error as LookupKnowledgeError).code).toBe("INVALID_OPTION");
    return (error as Error).message;
  }
  throw new Error("the change was accepted");
}

describe("planLabelMapUpdate", () => {
  it("deletes the labels of removed chunks, renumbers the survivors and gives added vectors fresh labels", () => {
    const plan = planLabelMapUpdate(MAP, LIVE, D, {
      renumber: Int32Array.from([1, -1, 0]),
      add: { vectors: Float32Array.from([1, 0, 0, 1]), chunkIds: [2, 3] },
      domains: ["a", "b", "c", "d"],
    });
    expect([...plan.chunkOfLabel]).toEqual([1, -1, -1, 0, 2, 3]);
    expect([...plan.deleted]).toEqual([2]);
    expect(plan.addedChunks).toEqual([2, 3]);
    expect([...plan.additions]).toEqual([1, 0, 0, 1]);
  });

  it("does not change the label map it was given", () => {
    planLabelMapUpdate(MAP, LIVE, D, { renumber: Int32Array.from([-1, 0, 1]), domains: ["a", "b"] });
    expect([...MAP]).toEqual([0, -1, 1, 2]);
  });

  it("refuses a renumbering that is not one entry per previous chunk", () => {
    expect(failure({ renumber: Int32Array.from([0, 1]), domains: ["a", "b"] })).toMatch(
      /one entry per previous chunk \(3\)/,
    );
  });

  it("refuses two chunks renumbered onto one, and a new chunk left without a vector", () => {
    expect(failure({ renumber: Int32Array.from([0, 0, 1]), domains: ["a", "b"] })).toMatch(
      /new chunk 0 is given twice/,
    );
    expect(failure({ renumber: Int32Array.from([0, 1, -1]), domains: ["a", "b", "c"] })).toMatch(
      /new chunk 2 has neither a renumbered nor an added vector/,
    );
  });

  it("refuses a target outside the new chunks", () => {
    expect(failure({ renumber: Int32Array.from([0, 1, 5]), domains: ["a", "b", "c"] })).toMatch(
      /renumber\[2\] is 5, outside the new chunks 0 to 2/,
    );
  });

  it("refuses a remove list that disagrees with the renumbering", () => {
    const renumber = Int32Array.from([0, -1, 1]);
    expect(failure({ renumber, remove: [1, 1], domains: ["a", "b"] })).toMatch(/lists a chunk twice/);
    expect(failure({ renumber, remove: [0], domains: ["a", "b"] })).toMatch(/which renumber keeps/);
    expect(failure({ renumber, remove: [], domains: ["a", "b"] })).toMatch(/removes 1 chunks but remove lists 0/);
  });

  it("refuses added rows that do not match their chunk ids, or a malformed row", () => {
    const renumber = Int32Array.from([0, 1, 2]);
    const domains = ["a", "b", "c", "d"];
    expect(failure({ renumber, add: { vectors: Float32Array.from([1, 0, 0, 1]), chunkIds: [3] }, domains })).toMatch(
      /holds 2 vectors for 1 chunk ids/,
    );
    expect(failure({ renumber, add: { vectors: Float32Array.from([0, 0]), chunkIds: [3] }, domains })).toMatch(
      /vector 0 is all zeros/,
    );
    expect(failure({ renumber, add: { vectors: Float32Array.from([NaN, 1]), chunkIds: [3] }, domains })).toMatch(
      /vector 0 holds NaN at position 0/,
    );
  });
});

describe("labelOfChunks", () => {
  it("inverts a label map, leaving chunks without a vector at -1", () => {
    expect([...labelOfChunks(MAP, 4)]).toEqual([0, 2, 3, -1]);
  });
});
