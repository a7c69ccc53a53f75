import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import { mulberry32 } from "../../src/l1/embeddings/linear-algebra.js";
import { VectorIndex, type VectorBuildThread } from "../../src/l1/vector-index.js";
import { VectorIndexBuilder } from "../../src/l1/vector-index-builder.js";

const D = 12;

/** `count` random unit-ish vectors, row-major. */
function randomVectors(count: number, seed: number): Float32Array {
  const random = mulberry32(seed);
  return Float32Array.from({ length: count * D }, () => random() - 0.5);
}

function row(vectors: Float32Array, i: number): number[] {
  return Array.from(vectors.subarray(i * D, (i + 1) * D));
}

async function rejectionCode(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (error: unknown) => (error instanceof LookupKnowledgeError ? error.code : "not a LookupKnowledgeError"),
  );
}

const N = 60;
const vectors = randomVectors(N, 1);
const domains = Array.from({ length: N }, (_, i) => (i % 3 === 0 ? "ops" : i % 3 === 1 ? "billing" : undefined));

/**
 * The change used below: chunks 10-19 removed, the rest shift down by 10 (20 → 10, ...), and
 * five new chunks appended as 50-54 whose vectors are copies of old chunks 10-14 (so a query
 * for a removed vector finds its replacement), all in domain "new".
 */
const removed = Array.from({ length: 10 }, (_, i) => 10 + i);
const renumber = Int32Array.from({ length: N }, (_, i) => (i < 10 ? i : i < 20 ? -1 : i - 10));
const added = { vectors: vectors.slice(10 * D, 15 * D), chunkIds: [50, 51, 52, 53, 54] };
const newDomains = [
  ...Array.from({ length: 50 }, (_, j) => domains[j < 10 ? j : j + 10]),
  "new",
  "new",
  "new",
  "new",
  "new",
];

async function updated(thread: VectorBuildThread): Promise<{ before: VectorIndex; after: VectorIndex }> {
  const before = await VectorIndex.build(vectors.slice(), D, domains, {}, { thread });
  const after = await before.update(
    {
      renumber,
      remove: removed,
      add: { vectors: added.vectors.slice(), chunkIds: added.chunkIds },
      domains: newDomains,
    },
    { thread },
  );
  return { before, after };
}

describe("VectorIndex.build", () => {
  it("builds the same graph in a worker as on the calling thread", async () => {
    const inline = await VectorIndex.build(vectors.slice(), D, domains, {}, { thread: "inline" });
    const worker = await VectorIndex.build(vectors.slice(), D, domains, {}, { thread: "worker" });
    expect(worker.size).toBe(N);
    for (let i = 0; i < N; i += 7) {
      expect(worker.search(row(vectors, i), 5)).toEqual(inline.search(row(vectors, i), 5));
      expect(worker.search(row(vectors, i), 5, "ops")).toEqual(inline.search(row(vectors, i), 5, "ops"));
    }
    expect(inline.search(row(vectors, 4), 1)[0]?.id).toBe(4);
  });

  it("transfers the vectors to the worker, detaching the caller's buffer", async () => {
    const mine = vectors.slice();
    await VectorIndex.build(mine, D, domains, {}, { thread: "worker" });
    expect(mine.length).toBe(0);
  });

  it("streams batches into a builder, labelling them in order of arrival", async () => {
    const builder = VectorIndexBuilder.start(D, N, {}, { thread: "worker" });
    await builder.add(vectors.slice(0, 25 * D));
    await builder.add(vectors.slice(25 * D));
    const index = await builder.finish(domains);
    expect(index.size).toBe(N);
    expect(index.search(row(vectors, 40), 1)[0]?.id).toBe(40);
  });

  it("rejects malformed vectors and mismatched domains before hnswlib sees them", async () => {
    const bad = vectors.slice();
    bad[5 * D + 3] = Number.NaN;
    expect(await rejectionCode(VectorIndex.build(bad, D, domains, {}, { thread: "inline" }))).toBe("INVALID_OPTION");
    expect(await rejectionCode(VectorIndex.build(new Float32Array(2 * D), D, ["a", "b"]))).toBe("INVALID_OPTION");
    expect(await rejectionCode(VectorIndex.build(vectors.slice(), D, domains.slice(1), {}, { thread: "worker" }))).toBe(
      "INVALID_OPTION",
    );
    expect(await rejectionCode(VectorIndex.build(vectors.slice(), D, domains, { m: 1 }))).toBe("INVALID_OPTION");
  });
});

describe.each(["inline", "worker"] as const)("VectorIndex.update (%s)", (thread) => {
  it("never returns a removed chunk, and returns the survivors and the new chunks in the new numbering", async () => {
    const { after } = await updated(thread);
    expect(after.size).toBe(55);
    expect(after.deletedCount).toBe(10);
    expect(after.labelCount).toBe(65);
    const returned = new Set<number>();
    for (let i = 0; i < N; i++) for (const hit of after.search(row(vectors, i), 55)) returned.add(hit.id);
    expect([...returned].sort((a, b) => a - b)).toEqual(Array.from({ length: 55 }, (_, j) => j));
    // Old chunk 30 is new chunk 20; old 5 keeps its number; removed old 12 now answers as its copy, new 52.
    expect(after.search(row(vectors, 30), 1)[0]).toMatchObject({ id: 20 });
    expect(after.search(row(vectors, 5), 1)[0]).toMatchObject({ id: 5 });
    expect(after.search(row(vectors, 12), 1)[0]).toMatchObject({ id: 52 });
    // Removed old 15-19 have no copy: nothing stored matches them exactly any more.
    for (const i of removed.slice(5)) expect(after.search(row(vectors, i), 1)[0].similarity).toBeLessThan(0.999);
  });

  it("filters by the domains of the new numbering, new chunks included", async () => {
    const { after } = await updated(thread);
    const fresh = after.search(row(vectors, 0), 10, "new");
    expect(fresh.map((hit) => hit.id).sort()).toEqual([50, 51, 52, 53, 54]);
    for (const hit of after.search(row(vectors, 0), 20, "ops")) expect(newDomains[hit.id]).toBe("ops");
  });

  it("compacts the live vectors into a graph without deleted labels that answers alike", async () => {
    const { after } = await updated(thread);
    const compact = await after.compact(newDomains, {}, { thread });
    expect(compact.deletedCount).toBe(0);
    expect(compact.size).toBe(55);
    expect(compact.search(row(vectors, 30), 1)[0]?.id).toBe(20);
    expect(compact.search(row(vectors, 12), 3, "new")[0]?.id).toBe(52);
  });
});

describe("VectorIndex.update in place", () => {
  it("leaves the previous index answering in its own numbering without the removed chunks, but unable to save or update", async () => {
    const { before } = await updated("inline");
    const ids = before.search(row(vectors, 12), N).map((hit) => hit.id);
    for (const id of ids) expect(id < 10 || id >= 20).toBe(true);
    expect(before.search(row(vectors, 30), 1)[0]?.id).toBe(30);
    expect(await rejectionCode(before.save("/nonexistent/never-written.hnsw"))).toBe("INVALID_OPTION");
    expect(await rejectionCode(before.update({ renumber: new Int32Array(N).map((_, i) => i), domains }))).toBe(
      "INVALID_OPTION",
    );
  });

  it("refuses to change the graph in place while it is being written", async () => {
    const index = await VectorIndex.build(vectors.slice(), D, domains, {}, { thread: "inline" });
    const dir = await mkdtemp(join(tmpdir(), "lookup-knowledge-vector-index-"));
    try {
      const saving = index.save(join(dir, "vectors.hnsw"));
      expect(
        await rejectionCode(
          index.update({ renumber: Int32Array.from({ length: N }, (_, i) => i), domains }, { thread: "inline" }),
        ),
      ).toBe("INVALID_OPTION");
      await saving;
      expect(
        (await index.update({ renumber: Int32Array.from({ length: N }, (_, i) => i), domains }, { thread: "inline" }))
          .size,
      ).toBe(N);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("leaves the previous index untouched when the update runs in a worker", async () => {
    const { before } = await updated("worker");
    expect(before.size).toBe(N);
    expect(before.search(row(vectors, 12), 1)[0]?.id).toBe(12);
  });
});

describe("VectorIndex.update checks", () => {
  const identity = Int32Array.from({ length: N }, (_, i) => i);

  it.each<[string, (index: VectorIndex) => Promise<unknown>]>([
    ["a renumbering of the wrong length", (index) => index.update({ renumber: identity.slice(1), domains })],
    [
      "two chunks renumbered onto one",
      (index) => index.update({ renumber: identity.map((i) => (i === 1 ? 0 : i)), domains: domains.slice(1) }),
    ],
    ["a new chunk left without a vector", (index) => index.update({ renumber: identity, domains: [...domains, "x"] })],
    [
      "an added chunk that a survivor already has",
      (index) => index.update({ renumber: identity, add: { vectors: vectors.slice(0, D), chunkIds: [3] }, domains }),
    ],
    ["a remove list that renumber contradicts", (index) => index.update({ renumber: identity, remove: [4], domains })],
    [
      "an added vector of zeros",
      (index) =>
        index.update({
          renumber: identity,
          add: { vectors: new Float32Array(D), chunkIds: [N] },
          domains: [...domains, "x"],
        }),
    ],
    [
      "more vectors than chunk ids",
      (index) =>
        index.update({
          renumber: identity,
          add: { vectors: vectors.slice(0, 2 * D), chunkIds: [N] },
          domains: [...domains, "x"],
        }),
    ],
  ])("rejects %s, changing nothing", async (_name, change) => {
    const index = await VectorIndex.build(vectors.slice(), D, domains, {}, { thread: "inline" });
    expect(await rejectionCode(change(index))).toBe("INVALID_OPTION");
    expect(index.size).toBe(N);
    expect(index.search(row(vectors, 8), 1)[0]?.id).toBe(8);
  });
});

describe("VectorIndex.vectorsOf", () => {
  /** `row(vectors, i)` scaled to unit length, as the cosine space stores it. */
  function unit(i: number): number[] {
    const v = row(vectors, i);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  }

  function rows(out: Float32Array): number[][] {
    return Array.from({ length: out.length / D }, (_, i) => Array.from(out.subarray(i * D, (i + 1) * D)));
  }

  function expectClose(actual: number[], expected: number[]): void {
    actual.forEach((x, c) => expect(x).toBeCloseTo(expected[c], 5));
  }

  it("gives the stored unit vectors of the chunks asked for, row i for chunkIds[i], in any order", async () => {
    const index = await VectorIndex.build(vectors.slice(), D, domains, {}, { thread: "inline" });
    const out = index.vectorsOf([7, 0, 42, 7]);
    expect(out).toBeInstanceOf(Float32Array);
    expect(out.length).toBe(4 * D);
    const [a, b, c, d] = rows(out);
    expectClose(a, unit(7));
    expectClose(b, unit(0));
    expectClose(c, unit(42));
    expect(d).toEqual(a);
    for (const r of rows(out)) expect(Math.hypot(...r)).toBeCloseTo(1, 5);
  });

  it("gives an empty array for no chunks", async () => {
    const index = await VectorIndex.build(vectors.slice(), D, domains, {}, { thread: "inline" });
    expect(index.vectorsOf([])).toEqual(new Float32Array(0));
  });

  it("follows the numbering of an update: survivors renumbered, added chunks included", async () => {
    const { after } = await updated("inline");
    const [renumbered, kept, added] = rows(after.vectorsOf([20, 5, 52]));
    expectClose(renumbered, unit(30));
    expectClose(kept, unit(5));
    expectClose(added, unit(12));
  });

  it.each([
    ["past the last chunk", N],
    ["negative", -1],
    ["not an integer", 1.5],
  ])("refuses a chunk number %s with INVALID_OPTION", async (_name, chunk) => {
    const index = await VectorIndex.build(vectors.slice(), D, domains, {}, { thread: "inline" });
    expect(() => index.vectorsOf([0, chunk])).toThrow(
      expect.objectContaining({
        code: "INVALID_OPTION",
        message: expect.stringContaining(`the index holds no vector for chunk ${chunk}`),
      }),
    );
  });

  it("refuses to read the vectors of an index superseded by an in-place update", async () => {
    const { before } = await updated("inline");
    expect(() => before.vectorsOf([0])).toThrow(
      expect.objectContaining({ code: "INVALID_OPTION", message: expect.stringContaining("superseded by an update") }),
    );
  });
});
