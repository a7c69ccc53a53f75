import { describe, expect, it } from "vitest";
import { Bm25Stats, type ScoredDoc } from "../../src/l0/bm25.js";
import { mulberry32 } from "../../src/l1/embeddings/linear-algebra.js";
import { bagOfTokens } from "../../src/text/term-bags.js";

/** Documents over a Zipf-like vocabulary: a few very common terms, a long tail, repeated tfs, equal-score ties. */
function randomCorpus(seed: number, docs: number, vocabulary: number): string[][] {
  const random = mulberry32(seed);
  return Array.from({ length: docs }, () => {
    const length = 1 + Math.floor(random() * 30);
    return Array.from({ length }, () => `t${Math.floor(vocabulary * random() ** 3)}`);
  });
}

function exhaustive(stats: Bm25Stats, query: string[], k: number, accept?: (doc: number) => boolean): ScoredDoc[] {
  return [...stats.score(query)]
    .filter(([id]) => accept === undefined || accept(id))
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .slice(0, k);
}

describe("BM25 top-k by MaxScore pruning", () => {
  it("returns exactly the exhaustive ranking and scores on random corpora, for many queries and k", () => {
    for (const seed of [1, 2, 3]) {
      const docs = randomCorpus(seed, 2_000, 400);
      const stats = Bm25Stats.fromDocuments(docs);
      const random = mulberry32(seed * 7919);
      for (let q = 0; q < 60; q++) {
        const query = Array.from(
          { length: 1 + Math.floor(random() * 12) },
          () => `t${Math.floor(400 * random() ** 2)}`,
        );
        for (const k of [1, 5, 20, 100])
          expect(stats.topK(query, k), `seed ${seed} query ${query.join(" ")} k ${k}`).toEqual(
            exhaustive(stats, query, k),
          );
      }
    }
  });

  it("keeps ties in document order, as the exhaustive ranking does", () => {
    const docs = Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? ["same", "words"] : ["other"]));
    const stats = Bm25Stats.fromDocuments(docs);
    const top = stats.topK(["same"], 7);
    expect(top.map((hit) => hit.id)).toEqual([0, 2, 4, 6, 8, 10, 12]);
    expect(new Set(top.map((hit) => hit.score)).size).toBe(1);
  });

  it("applies a document filter inside the search and still fills k", () => {
    const docs = randomCorpus(11, 1_500, 200);
    const stats = Bm25Stats.fromDocuments(docs);
    const accept = (doc: number) => doc % 5 === 0;
    for (const query of [["t0", "t1"], ["t3", "t50", "t120"], ["t7"]]) {
      const top = stats.topK(query, 20, accept);
      expect(top).toEqual(exhaustive(stats, query, 20, accept));
      expect(top.every(({ id }) => accept(id))).toBe(true);
    }
  });

  it("counts a repeated query term once per occurrence, like exhaustive scoring", () => {
    const stats = Bm25Stats.fromDocuments(randomCorpus(5, 500, 100));
    expect(stats.topK(["t1", "t1", "t9"], 10)).toEqual(exhaustive(stats, ["t1", "t1", "t9"], 10));
  });
});

describe("BM25 changes in place of a rebuild", () => {
  it("scores exactly as statistics rebuilt from the changed documents", () => {
    const before = randomCorpus(21, 600, 150);
    const stats = Bm25Stats.fromDocuments(before);
    const random = mulberry32(99);
    // Remove every seventh document, insert new ones (with unseen terms) between the kept ones.
    const after: string[][] = [];
    const renumber = new Int32Array(before.length).fill(-1);
    const vocabulary = { terms: [...stats.terms], termIds: new Map(stats.terms.map((term, id) => [term, id])) };
    const added: { id: number; bag: Uint32Array }[] = [];
    before.forEach((doc, i) => {
      if (random() < 0.1) {
        const fresh = [...doc.slice(0, 3), `new${i}`, "t1"];
        added.push({ id: after.length, bag: bagOfTokens(fresh, vocabulary) });
        after.push(fresh);
      }
      if (i % 7 !== 0) {
        renumber[i] = after.length;
        after.push(doc);
      }
    });
    const changed = stats.withChanges({ renumber, size: after.length, terms: vocabulary.terms, added });
    const rebuilt = Bm25Stats.fromDocuments(after);
    expect(changed.size).toBe(rebuilt.size);
    for (const query of [["t0"], ["t1", "t2", "t30"], ["new14", "t5"], ["t3", "t3", "t100", "missing"]]) {
      expect(changed.topK(query, 25)).toEqual(rebuilt.topK(query, 25));
      expect(changed.score(query)).toEqual(rebuilt.score(query));
      for (const term of query) expect(changed.idf(term)).toBe(rebuilt.idf(term));
    }
    expect(Bm25Stats.decode(changed.encode()).topK(["t1", "t2"], 10)).toEqual(rebuilt.topK(["t1", "t2"], 10));
  });

  it("refuses a change that breaks the document order or drops old terms", () => {
    const stats = Bm25Stats.fromDocuments([["a"], ["b"], ["c"]]);
    expect(() =>
      stats.withChanges({ renumber: Int32Array.from([1, 0, 2]), size: 3, terms: stats.terms, added: [] }),
    ).toThrow(/order/);
    expect(() => stats.withChanges({ renumber: Int32Array.from([0, 1, 2]), size: 3, terms: ["a"], added: [] })).toThrow(
      /vocabulary/,
    );
    expect(() =>
      stats.withChanges({ renumber: Int32Array.from([0, -1, 1]), size: 3, terms: stats.terms, added: [] }),
    ).toThrow(/neither kept nor added/);
  });
});
