import { describe, expect, it } from "vitest";
import { chunkFilterOf, type ChunkFilter } from "../../src/access/chunk-filter.js";
import { mulberry32 } from "../../src/l1/embeddings/linear-algebra.js";
import { EXACT_SCAN_MAX_CHUNKS, OVERSAMPLE_MAX_SHARE } from "../../src/l1/exact-search.js";
import { VectorIndex, type VectorHit } from "../../src/l1/vector-index.js";

const D = 12;

function randomVectors(count: number, seed: number, dimensions = D): Float32Array {
  const random = mulberry32(seed);
  return Float32Array.from({ length: count * dimensions }, () => random() - 0.5);
}

function row(vectors: Float32Array, i: number, dimensions = D): number[] {
  return Array.from(vectors.subarray(i * dimensions, (i + 1) * dimensions));
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, j) => {
    dot += x * b[j];
    na += x * x;
    nb += b[j] * b[j];
  });
  return dot / Math.sqrt(na * nb);
}

/** The true `k` nearest chunks of `filter` to `query`, by brute force over `vectors`. */
function bruteForce(
  vectors: Float32Array,
  query: readonly number[],
  k: number,
  filter: ChunkFilter,
  dimensions = D,
): VectorHit[] {
  return [...filter.ids]
    .map((id) => ({ id, similarity: cosine(query, row(vectors, id, dimensions)) }))
    .sort((a, b) => b.similarity - a.similarity || a.id - b.id)
    .slice(0, k);
}

function expectSameHits(actual: readonly VectorHit[], expected: readonly VectorHit[]): void {
  expect(actual.map(({ id }) => id)).toEqual(expected.map(({ id }) => id));
  actual.forEach((hit, i) => expect(hit.similarity).toBeCloseTo(expected[i].similarity, 4));
}

function expectAdmitted(hits: readonly VectorHit[], filter: ChunkFilter): void {
  for (const { id } of hits) expect(filter.admitted[id], `chunk ${id}`).toBe(1);
}

const N = 600;
const vectors = randomVectors(N, 1);
const domains = Array.from({ length: N }, (_, i) => (i % 2 === 0 ? "ops" : "billing"));
const build = () => VectorIndex.build(vectors.slice(), D, domains, {}, { thread: "inline" });

describe("VectorIndex.search with a ChunkFilter", () => {
  it("returns only admitted chunks, the true nearest ones, from a small filter", async () => {
    const index = await build();
    const filter = chunkFilterOf("small", N, (id) => id % 9 === 0);
    const random = mulberry32(2);
    for (let q = 0; q < 20; q++) {
      const query = Array.from({ length: D }, () => random() - 0.5);
      for (const k of [1, 5, 20]) {
        const hits = index.search(query, k, filter);
        expectAdmitted(hits, filter);
        expectSameHits(hits, bruteForce(vectors, query, k, filter));
      }
    }
  });

  it("finds an admitted chunk's own vector first", async () => {
    const index = await build();
    const filter = chunkFilterOf("small", N, (id) => id % 9 === 0);
    const [best] = index.search(row(vectors, 63), 3, filter);
    expect(best.id).toBe(63);
    expect(best.similarity).toBeCloseTo(1, 5);
  });

  it("never returns a chunk the filter leaves out, even for that chunk's own vector", async () => {
    const index = await build();
    const filter = chunkFilterOf("small", N, (id) => id % 9 === 0);
    expect(index.search(row(vectors, 64), 1)[0]?.id).toBe(64);
    expect(index.search(row(vectors, 64), 10, filter).map(({ id }) => id)).not.toContain(64);
  });

  it("returns every admitted chunk when k is larger than the filter", async () => {
    const index = await build();
    const filter = chunkFilterOf("three", N, (id) => id === 5 || id === 300 || id === 599);
    const hits = index.search(row(vectors, 0), 50, filter);
    expect(hits.map(({ id }) => id).sort((a, b) => a - b)).toEqual([5, 300, 599]);
  });

  it("returns nothing for a filter that admits nothing", async () => {
    const index = await build();
    expect(
      index.search(
        row(vectors, 0),
        10,
        chunkFilterOf("none", N, () => false),
      ),
    ).toEqual([]);
  });

  it("returns only admitted chunks, the true nearest ones, from a filter of moderate size", async () => {
    const index = await build();
    const filter = chunkFilterOf("half", N, (id) => id % 2 === 1 || id % 5 === 0);
    expect(filter.size).toBeGreaterThan(N / 2);
    const random = mulberry32(3);
    for (let q = 0; q < 10; q++) {
      const query = Array.from({ length: D }, () => random() - 0.5);
      const hits = index.search(query, 10, filter);
      expect(hits).toHaveLength(10);
      expectAdmitted(hits, filter);
      expectSameHits(hits, bruteForce(vectors, query, 10, filter));
    }
  });

  it("agrees with the domain filter when the ChunkFilter admits one domain", async () => {
    const index = await build();
    const filter = chunkFilterOf("ops", N, (id) => domains[id] === "ops");
    const query = row(vectors, 10);
    const byFilter = index.search(query, 10, filter);
    expectAdmitted(byFilter, filter);
    expect(byFilter[0].id).toBe(10);
    expect(byFilter.map(({ id }) => id)).toEqual(bruteForce(vectors, query, 10, filter).map(({ id }) => id));
    // The domain string runs in the graph; it may miss a neighbour the exact scan finds, never add an outsider.
    for (const { id } of index.search(query, 10, "ops")) expect(domains[id]).toBe("ops");
  });

  it("searches a filter larger than the exact-scan limit in the graph, returning only admitted chunks", async () => {
    const d = 8;
    const count = EXACT_SCAN_MAX_CHUNKS + 200;
    const many = randomVectors(count, 4, d);
    const index = await VectorIndex.build(
      many.slice(),
      d,
      new Array<undefined>(count).fill(undefined),
      {},
      { thread: "inline" },
    );
    const filter = chunkFilterOf("large", count, (id) => id % 50 !== 7);
    expect(filter.size).toBeGreaterThan(EXACT_SCAN_MAX_CHUNKS);
    for (const probe of [0, 1_000, 3_333, count - 1]) {
      const hits = index.search(row(many, probe, d), 10, filter);
      expect(hits).toHaveLength(10);
      expectAdmitted(hits, filter);
      expect(hits[0].id).toBe(probe);
    }
    for (const excluded of [7, 2_507, 5_157]) {
      const hits = index.search(row(many, excluded, d), 10, filter);
      expect(hits).toHaveLength(10);
      expectAdmitted(hits, filter);
      expect(hits.map(({ id }) => id)).not.toContain(excluded);
    }
  });

  it("answers a filter of a moderate share from an oversampled search with only admitted chunks, or from the filtered graph when too few are near", async () => {
    const d = 8;
    const count = Math.ceil((EXACT_SCAN_MAX_CHUNKS + 500) / OVERSAMPLE_MAX_SHARE);
    const many = randomVectors(count, 5, d);
    // The admitted chunks (every fourth) lie on the positive side of the first axis, so a query on its negative side has none near.
    for (let id = 1; id < count; id += 4) many[id * d] = 1 + Math.abs(many[id * d]);
    const index = await VectorIndex.build(
      many.slice(),
      d,
      new Array<undefined>(count).fill(undefined),
      {},
      { thread: "inline" },
    );
    const filter = chunkFilterOf("quarter", count, (id) => id % 4 === 1);
    expect(filter.size).toBeGreaterThan(EXACT_SCAN_MAX_CHUNKS);
    expect(filter.size / count).toBeLessThanOrEqual(OVERSAMPLE_MAX_SHARE);
    const random = mulberry32(6);
    let recall = 0;
    const queries = 20;
    for (let q = 0; q < queries; q++) {
      const query = Array.from({ length: d }, () => random() - 0.5);
      const hits = index.search(query, 20, filter);
      expect(hits).toHaveLength(20);
      expectAdmitted(hits, filter);
      const exact = new Set(bruteForce(many, query, 10, filter, d).map(({ id }) => id));
      recall += hits.slice(0, 10).filter(({ id }) => exact.has(id)).length / 10 / queries;
    }
    expect(recall).toBeGreaterThan(0.9);
    const far = index.search(
      Array.from({ length: d }, (_, j) => (j === 0 ? -1 : 0.01)),
      20,
      filter,
    );
    expect(far).toHaveLength(20);
    expectAdmitted(far, filter);
  });

  it("maps chunk numbers to labels in the exact scan of an index updated in place", async () => {
    const small = 60;
    const base = randomVectors(small, 5);
    const before = await VectorIndex.build(
      base.slice(),
      D,
      new Array<undefined>(small).fill(undefined),
      {},
      { thread: "inline" },
    );
    // Chunks 0-9 removed, 10-59 become 0-49, and new chunk 50 gets a fresh vector.
    const fresh = randomVectors(1, 6);
    const renumber = Int32Array.from({ length: small }, (_, i) => (i < 10 ? -1 : i - 10));
    const after = await before.update(
      { renumber, add: { vectors: fresh.slice(), chunkIds: [50] }, domains: new Array<undefined>(51).fill(undefined) },
      { thread: "inline" },
    );
    const current = new Float32Array(51 * D);
    current.set(base.subarray(10 * D));
    current.set(fresh, 50 * D);
    const filter = chunkFilterOf("even", 51, (id) => id % 2 === 0);
    for (const probe of [0, 20, 48, 50]) {
      const query = row(current, probe);
      const hits = after.search(query, 5, filter);
      expect(hits[0].id).toBe(probe);
      expectSameHits(hits, bruteForce(current, query, 5, filter));
    }
  });

  it("answers a superseded view's filtered search in its own numbering, without removed chunks", async () => {
    const small = 60;
    const base = randomVectors(small, 7);
    const before = await VectorIndex.build(
      base.slice(),
      D,
      new Array<undefined>(small).fill(undefined),
      {},
      { thread: "inline" },
    );
    const renumber = Int32Array.from({ length: small }, (_, i) => (i < 10 ? -1 : i - 10));
    await before.update(
      {
        renumber,
        add: { vectors: randomVectors(1, 8), chunkIds: [50] },
        domains: new Array<undefined>(51).fill(undefined),
      },
      { thread: "inline" },
    );
    const filter = chunkFilterOf("old-even", small, (id) => id % 2 === 0);
    const hits = before.search(row(base, 30), 10, filter);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0].id).toBe(30);
    for (const { id } of hits) {
      expect(filter.admitted[id]).toBe(1);
      expect(id).toBeGreaterThanOrEqual(10);
    }
  });
});
