import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../src/l1/embeddings/linear-algebra.js";
import { exactNearest, LabelVectorCache, type ExactHit } from "../../src/l1/exact-search.js";

const D = 16;

function unitVector(random: () => number): number[] {
  const v = Array.from({ length: D }, () => random() - 0.5);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/**
 * `count` chunks whose vectors are stored under label `7 * id + 3` (spread over several cache
 * blocks), and a cache over them that counts reads per label.
 */
function store(count: number, seed: number) {
  const random = mulberry32(seed);
  const vectors = Array.from({ length: count }, () => unitVector(random));
  const labelOf = Int32Array.from({ length: count }, (_, id) => 7 * id + 3);
  const byLabel = new Map<number, number[]>(vectors.map((vector, id) => [labelOf[id], vector]));
  const reads = new Map<number, number>();
  const cache = new LabelVectorCache(D, (label) => {
    reads.set(label, (reads.get(label) ?? 0) + 1);
    const vector = byLabel.get(label);
    if (vector === undefined) throw new Error(`no vector under label ${label}`);
    return vector;
  });
  return { random, vectors, labelOf, cache, reads };
}

function bruteForce(
  query: readonly number[],
  vectors: readonly number[][],
  ids: readonly number[],
  k: number,
): ExactHit[] {
  const norm = Math.hypot(...query);
  return ids
    .map((id) => ({ id, similarity: vectors[id].reduce((sum, x, j) => sum + (x * query[j]) / norm, 0) }))
    .sort((a, b) => b.similarity - a.similarity || a.id - b.id)
    .slice(0, k);
}

function expectSameHits(actual: readonly ExactHit[], expected: readonly ExactHit[]): void {
  expect(actual.map(({ id }) => id)).toEqual(expected.map(({ id }) => id));
  actual.forEach((hit, i) => expect(hit.similarity).toBeCloseTo(expected[i].similarity, 5));
}

describe("exactNearest", () => {
  it("finds the true cosine top k among the given chunks, best first", () => {
    const { random, vectors, labelOf, cache } = store(1_500, 1);
    for (let q = 0; q < 30; q++) {
      const query = unitVector(random);
      const ids = vectors.map((_, id) => id).filter(() => random() < 0.3);
      for (const k of [1, 5, 25])
        expectSameHits(exactNearest(query, k, ids, labelOf, cache), bruteForce(query, vectors, ids, k));
    }
  });

  it("searches only among the given chunks", () => {
    const { random, vectors, labelOf, cache } = store(200, 2);
    const ids = [5, 17, 80, 81, 199];
    const hits = exactNearest(unitVector(random), 10, Uint32Array.from(ids), labelOf, cache);
    expect(hits.map(({ id }) => id).sort((a, b) => a - b)).toEqual(ids);
    expect(hits).toHaveLength(ids.length);
    expect(vectors).toHaveLength(200);
  });

  it("finds a stored vector itself first, with similarity 1", () => {
    const { vectors, labelOf, cache } = store(300, 3);
    const ids = vectors.map((_, id) => id);
    const [best] = exactNearest(vectors[123], 3, ids, labelOf, cache);
    expect(best.id).toBe(123);
    expect(best.similarity).toBeCloseTo(1, 5);
  });

  it("normalises the query, so that its length changes nothing", () => {
    const { random, vectors, labelOf, cache } = store(300, 4);
    const ids = vectors.map((_, id) => id);
    const query = unitVector(random);
    const unit = exactNearest(query, 10, ids, labelOf, cache);
    const scaled = exactNearest(
      query.map((x) => x * 37.5),
      10,
      ids,
      labelOf,
      cache,
    );
    expectSameHits(scaled, unit);
    for (const hit of scaled) expect(Math.abs(hit.similarity)).toBeLessThanOrEqual(1 + 1e-6);
  });

  it("skips chunks without a label and chunks beyond the label map", () => {
    const { random, vectors, labelOf, cache, reads } = store(100, 5);
    const partial = labelOf.slice();
    for (const id of [2, 4, 6]) partial[id] = -1;
    const ids = [1, 2, 3, 4, 5, 6, 100, 250];
    const hits = exactNearest(unitVector(random), 10, ids, partial, cache);
    expect(hits.map(({ id }) => id).sort((a, b) => a - b)).toEqual([1, 3, 5]);
    expect([...reads.keys()].sort((a, b) => a - b)).toEqual([1, 3, 5].map((id) => labelOf[id]));
    expect(vectors).toHaveLength(100);
  });

  it("returns nothing when no chunk is given or k is 0", () => {
    const { random, labelOf, cache } = store(10, 6);
    expect(exactNearest(unitVector(random), 5, [], labelOf, cache)).toEqual([]);
    expect(exactNearest(unitVector(random), 0, [1, 2], labelOf, cache)).toEqual([]);
  });

  it("orders chunks of equal similarity by the smaller chunk number", () => {
    const same = unitVector(mulberry32(7));
    const other = unitVector(mulberry32(8));
    const byLabel = [other, same, same, same];
    const cache = new LabelVectorCache(D, (label) => byLabel[label]);
    // Chunk 9 → label 1, chunk 4 → label 2, chunk 6 → label 3, chunk 0 → label 0.
    const labelOf = new Int32Array(10).fill(-1);
    labelOf[9] = 1;
    labelOf[4] = 2;
    labelOf[6] = 3;
    labelOf[0] = 0;
    expect(exactNearest(same, 3, [0, 4, 6, 9], labelOf, cache).map(({ id }) => id)).toEqual([4, 6, 9]);
    // In any order of the given chunks, and when k cuts through the tie.
    expect(exactNearest(same, 2, [9, 0, 6, 4], labelOf, cache).map(({ id }) => id)).toEqual([4, 6]);
  });

  it("agrees with a full sort when the given chunks come in no order", () => {
    const { random, vectors, labelOf, cache } = store(800, 3);
    for (let q = 0; q < 10; q++) {
      const query = unitVector(random);
      const ids = vectors.map((_, id) => id).sort(() => random() - 0.5);
      for (const k of [1, 7, 900])
        expectSameHits(exactNearest(query, k, ids, labelOf, cache), bruteForce(query, vectors, ids, k));
    }
  });
});

describe("LabelVectorCache", () => {
  it("reads each label once, however many scans use it", () => {
    const { random, vectors, labelOf, cache, reads } = store(2_000, 9);
    const ids = vectors.map((_, id) => id).filter((id) => id % 3 !== 0);
    for (let q = 0; q < 5; q++) exactNearest(unitVector(random), 10, ids, labelOf, cache);
    exactNearest(
      unitVector(random),
      10,
      vectors.map((_, id) => id),
      labelOf,
      cache,
    );
    expect(reads.size).toBe(vectors.length);
    expect([...reads.values()].every((count) => count === 1)).toBe(true);
  });

  it("hands out the stored vector of a label, as 32-bit floats, across blocks", () => {
    const { vectors, labelOf, cache } = store(400, 10);
    for (const id of [0, 146, 147, 399]) {
      const vector = cache.vector(labelOf[id]);
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(D);
      expect([...vector]).toEqual([...Float32Array.from(vectors[id])]);
    }
    expect(cache.dimensions).toBe(D);
  });

  it("keeps labels of one block apart", () => {
    const cache = new LabelVectorCache(2, (label) => [label, -label]);
    expect([...cache.vector(5)]).toEqual([5, -5]);
    expect([...cache.vector(6)]).toEqual([6, -6]);
    expect([...cache.vector(1023)]).toEqual([1023, -1023]);
    expect([...cache.vector(1024)]).toEqual([1024, -1024]);
    expect([...cache.vector(5)]).toEqual([5, -5]);
  });
});
