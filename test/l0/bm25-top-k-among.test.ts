import { afterEach, describe, expect, it, vi } from "vitest";
import { Bm25Stats, type ScoredDoc } from "../../src/l0/bm25.js";
import { bm25TopK, bm25TopKAmong, type PostingsView, type WeightedTerm } from "../../src/l0/bm25-top-k.js";
import { postingsFromBags } from "../../src/l0/bm25-postings.js";
import { mulberry32 } from "../../src/l1/embeddings/linear-algebra.js";
import { bagOfTokens } from "../../src/text/term-bags.js";

// Spies that call through, to tell which plan Bm25Stats.topKAmong took.
vi.mock(import("../../src/l0/bm25-top-k.js"), async (importOriginal) => {
  const actual = await importOriginal();
  return { ...actual, bm25TopK: vi.fn(actual.bm25TopK), bm25TopKAmong: vi.fn(actual.bm25TopKAmong) };
});

afterEach(() => {
  vi.mocked(bm25TopK).mockClear();
  vi.mocked(bm25TopKAmong).mockClear();
});

/** Documents over a Zipf-like vocabulary: a few very common terms, a long tail, repeated tfs, equal-score ties. */
function randomCorpus(seed: number, docs: number, vocabulary: number): string[][] {
  const random = mulberry32(seed);
  return Array.from({ length: docs }, () => {
    const length = 1 + Math.floor(random() * 30);
    return Array.from({ length }, () => `t${Math.floor(vocabulary * random() ** 3)}`);
  });
}

function randomQuery(random: () => number, vocabulary: number): string[] {
  return Array.from({ length: 1 + Math.floor(random() * 8) }, () => `t${Math.floor(vocabulary * random() ** 2)}`);
}

/** `size` distinct document numbers below `count`, as the ascending ids and the admitted bits of a filter. */
function randomAdmitted(random: () => number, count: number, size: number): { ids: Uint32Array; admitted: Uint8Array } {
  const order = Array.from({ length: count }, (_, i) => i);
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const ids = Uint32Array.from(order.slice(0, size)).sort();
  const admitted = new Uint8Array(count);
  for (const id of ids) admitted[id] = 1;
  return { ids, admitted };
}

/** A postings view of `docs` with BM25's length norms and impact bounds (k1 0.9, b 0.4), and a weighted query builder. */
function viewOf(docs: readonly string[][]): {
  view: PostingsView;
  weigh: (terms: readonly string[]) => WeightedTerm[];
} {
  const k1 = 0.9;
  const b = 0.4;
  const vocabulary = { terms: [] as string[], termIds: new Map<string, number>() };
  const bags = docs.map((tokens) => bagOfTokens(tokens, vocabulary));
  const { offsets, docs: postingDocs, tfs, docLengths } = postingsFromBags(vocabulary.terms, bags, { k1, b });
  const avgdl = docLengths.reduce((sum, length) => sum + length, 0) / docLengths.length;
  const lengthNorm = Float64Array.from(docLengths, (length) => k1 * (1 - b + (b * length) / avgdl));
  const maxImpact = new Float64Array(vocabulary.terms.length);
  for (let t = 0; t < maxImpact.length; t++) {
    for (let at = offsets[t]; at < offsets[t + 1]; at++)
      maxImpact[t] = Math.max(maxImpact[t], tfs[at] / (tfs[at] + lengthNorm[postingDocs[at]]));
  }
  const n = docs.length;
  const weigh = (terms: readonly string[]): WeightedTerm[] => {
    const weights = new Map<number, number>();
    for (const term of terms) {
      const id = vocabulary.termIds.get(term);
      if (id === undefined) continue;
      const df = offsets[id + 1] - offsets[id];
      weights.set(id, (weights.get(id) ?? 0) + Math.log(1 + (n - df + 0.5) / (df + 0.5)) * (k1 + 1));
    }
    return [...weights].map(([term, weight]) => ({ term, weight }));
  };
  return { view: { offsets, docs: postingDocs, tfs, lengthNorm, maxImpact }, weigh };
}

function exhaustiveAmong(stats: Bm25Stats, query: string[], k: number, admitted: Uint8Array): ScoredDoc[] {
  return [...stats.score(query)]
    .filter(([id]) => admitted[id] === 1)
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .slice(0, k);
}

const SIZES = [0, 1, 3, 10, 40, 150, 600, 1_500, 2_000];
const KS = [1, 5, 20, 100, 5_000];

describe("bm25TopKAmong", () => {
  it("equals bm25TopK with an accept admitting the same documents, ids and scores, on random corpora", () => {
    for (const seed of [1, 2, 3]) {
      const docs = randomCorpus(seed, 2_000, 400);
      const { view, weigh } = viewOf(docs);
      const random = mulberry32(seed * 104_729);
      for (let q = 0; q < 25; q++) {
        const query = weigh(randomQuery(random, 400));
        for (const size of SIZES) {
          const { ids, admitted } = randomAdmitted(random, docs.length, size);
          for (const k of KS) {
            const expected = bm25TopK(view, query, k, (doc) => admitted[doc] === 1);
            expect(bm25TopKAmong(view, query, ids, k), `seed ${seed} query ${q} size ${size} k ${k}`).toEqual(expected);
          }
        }
      }
    }
  });

  it("returns nothing for k below 1, an empty query or no admitted documents", () => {
    const { view, weigh } = viewOf([["a", "b"], ["b"]]);
    expect(bm25TopKAmong(view, weigh(["b"]), [0, 1], 0)).toEqual([]);
    expect(bm25TopKAmong(view, [], [0, 1], 5)).toEqual([]);
    expect(bm25TopKAmong(view, weigh(["b"]), [], 5)).toEqual([]);
  });

  it("leaves out admitted documents that hold no query term", () => {
    const { view, weigh } = viewOf([["a"], ["b"], ["a", "c"], ["c"]]);
    expect(bm25TopKAmong(view, weigh(["a"]), [0, 1, 3], 10).map(({ id }) => id)).toEqual([0]);
  });

  it("breaks ties by the smaller document number", () => {
    const { view, weigh } = viewOf(Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? ["same"] : ["other"])));
    const top = bm25TopKAmong(view, weigh(["same"]), [3, 6, 9, 12, 15, 16, 21, 27], 4);
    expect(top.map(({ id }) => id)).toEqual([3, 6, 9, 12]);
    expect(new Set(top.map(({ score }) => score)).size).toBe(1);
  });
});

describe("Bm25Stats.topKAmong", () => {
  it("equals topK with an accept admitting the same documents, for admitted sets of many sizes", () => {
    for (const seed of [4, 5]) {
      const docs = randomCorpus(seed, 2_000, 400);
      const stats = Bm25Stats.fromDocuments(docs);
      const random = mulberry32(seed * 7_919);
      for (let q = 0; q < 25; q++) {
        const query = randomQuery(random, 400);
        for (const size of SIZES) {
          const { ids, admitted } = randomAdmitted(random, docs.length, size);
          for (const k of KS) {
            const expected = stats.topK(query, k, (doc) => admitted[doc] === 1);
            const among = stats.topKAmong(query, k, ids, admitted);
            expect(among, `seed ${seed} query ${query.join(" ")} size ${size} k ${k}`).toEqual(expected);
            expect(among).toEqual(exhaustiveAmong(stats, query, k, admitted));
          }
        }
      }
    }
  });

  it("scores a few admitted documents exactly and prunes over many, with the same result", () => {
    const docs = randomCorpus(6, 2_000, 400);
    const stats = Bm25Stats.fromDocuments(docs);
    const random = mulberry32(17);
    // Common terms: long postings, so that a handful of admitted documents is cheaper to look up than to walk.
    const query = ["t0", "t1", "t2"];

    const few = randomAdmitted(random, docs.length, 5);
    vi.mocked(bm25TopKAmong).mockClear();
    vi.mocked(bm25TopK).mockClear();
    expect(stats.topKAmong(query, 10, few.ids, few.admitted)).toEqual(exhaustiveAmong(stats, query, 10, few.admitted));
    expect(vi.mocked(bm25TopKAmong)).toHaveBeenCalledTimes(1);
    expect(vi.mocked(bm25TopK)).not.toHaveBeenCalled();

    const many = randomAdmitted(random, docs.length, 1_800);
    vi.mocked(bm25TopKAmong).mockClear();
    vi.mocked(bm25TopK).mockClear();
    expect(stats.topKAmong(query, 10, many.ids, many.admitted)).toEqual(
      exhaustiveAmong(stats, query, 10, many.admitted),
    );
    expect(vi.mocked(bm25TopK)).toHaveBeenCalledTimes(1);
    expect(vi.mocked(bm25TopKAmong)).not.toHaveBeenCalled();
  });

  it("takes both plans over the random cases of the equality check", () => {
    const docs = randomCorpus(7, 2_000, 400);
    const stats = Bm25Stats.fromDocuments(docs);
    const random = mulberry32(23);
    for (let q = 0; q < 10; q++) {
      const query = randomQuery(random, 400);
      for (const size of SIZES) {
        const { ids, admitted } = randomAdmitted(random, docs.length, size);
        stats.topKAmong(query, 10, ids, admitted);
      }
    }
    expect(vi.mocked(bm25TopKAmong).mock.calls.length).toBeGreaterThan(0);
    expect(vi.mocked(bm25TopK).mock.calls.length).toBeGreaterThan(0);
  });

  it("counts a repeated query term once per occurrence, like topK", () => {
    const stats = Bm25Stats.fromDocuments(randomCorpus(8, 500, 100));
    const { ids, admitted } = randomAdmitted(mulberry32(3), 500, 20);
    expect(stats.topKAmong(["t1", "t1", "t9"], 10, ids, admitted)).toEqual(
      stats.topK(["t1", "t1", "t9"], 10, (doc) => admitted[doc] === 1),
    );
  });

  it("returns nothing for a query of unknown terms or an empty admitted set", () => {
    const stats = Bm25Stats.fromDocuments(randomCorpus(9, 200, 50));
    const { ids, admitted } = randomAdmitted(mulberry32(4), 200, 50);
    expect(stats.topKAmong(["unknown"], 10, ids, admitted)).toEqual([]);
    expect(stats.topKAmong(["t0"], 10, new Uint32Array(0), new Uint8Array(200))).toEqual([]);
  });

  it("gives the same result for statistics decoded from their file", () => {
    const docs = randomCorpus(10, 1_000, 200);
    const built = Bm25Stats.fromDocuments(docs);
    const random = mulberry32(5);
    for (const size of [4, 900]) {
      const decoded = Bm25Stats.decode(built.encode());
      const { ids, admitted } = randomAdmitted(random, docs.length, size);
      for (const query of [
        ["t0", "t3"],
        ["t1", "t40", "t120"],
      ])
        expect(decoded.topKAmong(query, 20, ids, admitted)).toEqual(
          built.topK(query, 20, (doc) => admitted[doc] === 1),
        );
    }
  });
});
