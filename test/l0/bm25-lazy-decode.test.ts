import { describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import { Bm25Stats } from "../../src/l0/bm25.js";
import { mulberry32 } from "../../src/l1/embeddings/linear-algebra.js";
import { bagOfTokens } from "../../src/text/term-bags.js";
import { craftBm25, SMALL, SMALL_DOCS } from "./bm25-craft.js";

/** Documents over a Zipf-like vocabulary, with unseen query terms possible. */
function randomCorpus(seed: number, docs: number, vocabulary: number): string[][] {
  const random = mulberry32(seed);
  return Array.from({ length: docs }, () =>
    Array.from({ length: Math.floor(random() * 25) }, () => `t${Math.floor(vocabulary * random() ** 3)}`),
  );
}

function randomQueries(seed: number, count: number, vocabulary: number): string[][] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + Math.floor(random() * 6) }, () => `t${Math.floor(vocabulary * 1.1 * random() ** 2)}`),
  );
}

/** Every answer of `actual` for `query` equals that of `expected`, to the last bit. */
function expectSameAnswers(actual: Bm25Stats, expected: Bm25Stats, query: string[], label: string): void {
  for (const k of [1, 10, 50]) expect(actual.topK(query, k), `${label} topK ${k}`).toEqual(expected.topK(query, k));
  expect(
    actual.topK(query, 10, (doc) => doc % 3 === 0),
    `${label} filtered`,
  ).toEqual(expected.topK(query, 10, (doc) => doc % 3 === 0));
  expect(actual.score(query), `${label} score`).toEqual(expected.score(query));
  expect(actual.score(query, [0, 5, 17]), `${label} score of ids`).toEqual(expected.score(query, [0, 5, 17]));
  for (const term of query) {
    expect(actual.idf(term)).toBe(expected.idf(term));
    expect(actual.documentsWith(term)).toEqual(expected.documentsWith(term));
    for (const doc of [0, 1, 42, 199]) expect(actual.contains(doc, term)).toBe(expected.contains(doc, term));
  }
}

function expectCorrupt(run: () => unknown, message: RegExp): void {
  try {
    run();
    expect.unreachable("no INDEX_CORRUPT error");
  } catch (error) {
    expect(error).toBeInstanceOf(LookupKnowledgeError);
    expect((error as LookupKnowledgeError).code).toBe("INDEX_CORRUPT");
    expect((error as Error).message).toMatch(message);
  }
}

describe("BM25 statistics decoded term by term", () => {
  it("answer every query exactly like the statistics they were encoded from, before and after every block is decoded", () => {
    for (const seed of [1, 2, 3, 4]) {
      const built = Bm25Stats.fromDocuments(randomCorpus(seed, 200 + seed * 150, 120));
      const bytes = built.encode();
      const lazy = Bm25Stats.decode(bytes);
      expect(lazy.size).toBe(built.size);
      expect(lazy.terms).toEqual(built.terms);
      const queries = randomQueries(seed * 31, 40, 120);
      // First half with most blocks never read, then a whole-index operation, then the rest.
      queries.slice(0, 20).forEach((query, q) => expectSameAnswers(lazy, built, query, `seed ${seed} query ${q}`));
      expect(lazy.collectionFrequencies()).toEqual(built.collectionFrequencies());
      queries
        .slice(20)
        .forEach((query, q) => expectSameAnswers(lazy, built, query, `seed ${seed} query ${q + 20}, all decoded`));
      const wholeFirst = Bm25Stats.decode(bytes);
      expect(wholeFirst.collectionFrequencies()).toEqual(built.collectionFrequencies());
      expectSameAnswers(wholeFirst, built, queries[0], `seed ${seed}, whole index first`);
    }
  });

  it("encode to the very bytes they were decoded from, however many blocks were read", () => {
    const bytes = Bm25Stats.fromDocuments(randomCorpus(7, 500, 200)).encode();
    const untouched = Bm25Stats.decode(bytes);
    expect(untouched.encode()).toEqual(bytes);
    const partly = Bm25Stats.decode(bytes);
    partly.topK(["t0", "t3", "t40"], 10);
    expect(partly.encode()).toEqual(bytes);
    const whole = Bm25Stats.decode(bytes);
    whole.collectionFrequencies();
    expect(whole.encode()).toEqual(bytes);
    expect(Bm25Stats.decode(whole.encode()).encode()).toEqual(bytes);
  });

  it("hand out a copy when encoding, so that changing it changes nothing loaded", () => {
    const bytes = Bm25Stats.fromDocuments(SMALL_DOCS).encode();
    const stats = Bm25Stats.decode(bytes);
    stats.encode().fill(0xff);
    expect(stats.encode()).toEqual(bytes);
    expect(stats.topK(["alpha"], 5).map((hit) => hit.id)).toEqual([2, 0]);
  });

  it("apply changes from a partly decoded index exactly as a rebuild does", () => {
    const before = randomCorpus(9, 300, 80);
    const stats = Bm25Stats.decode(Bm25Stats.fromDocuments(before).encode());
    stats.topK(["t1", "t2"], 5);
    const vocabulary = { terms: [...stats.terms], termIds: new Map(stats.terms.map((term, id) => [term, id])) };
    const fresh = ["t1", "brand-new", "t5"];
    const renumber = Int32Array.from(before, (_, d) => (d === 0 ? -1 : d));
    const changed = stats.withChanges({
      renumber,
      size: before.length,
      terms: vocabulary.terms,
      added: [{ id: 0, bag: bagOfTokens(fresh, vocabulary) }],
    });
    const rebuilt = Bm25Stats.fromDocuments([fresh, ...before.slice(1)]);
    for (const query of [["t1", "t5"], ["brand-new"], ["t0", "t2", "t30"]]) {
      expect(changed.topK(query, 20)).toEqual(rebuilt.topK(query, 20));
      expect(changed.score(query)).toEqual(rebuilt.score(query));
    }
  });
});

describe("a crafted BM25 file with one bad posting block", () => {
  const cases: { name: string; block: { df: number; bytes: number[] }; message: RegExp }[] = [
    {
      name: "a document past the last one",
      block: { df: 2, bytes: [0, 1, 5, 1] },
      message: /term 1 list document 6, past the last one \(2\)/,
    },
    {
      name: "a term frequency of 0",
      block: { df: 2, bytes: [0, 1, 0, 0] },
      message: /term 1 give document 1 a term frequency of 0/,
    },
    {
      name: "bytes left over in the block",
      block: { df: 2, bytes: [0, 1, 0, 1, 0, 1] },
      message: /term 1 leave 2 bytes of their block unread/,
    },
    { name: "a varint running past the block", block: { df: 2, bytes: [0, 1, 0, 0x81] }, message: /term 1 end early/ },
    {
      name: "a varint not in its shortest form",
      block: { df: 2, bytes: [0, 1, 0x80, 0x00, 1] },
      message: /term 1 hold a number not in its shortest form/,
    },
  ];

  for (const { name, block, message } of cases) {
    it(`loads, answers queries that do not touch the bad term, and refuses the first one that does (${name})`, () => {
      const bytes = craftBm25({ ...SMALL, rawBlocks: { 1: block } });
      const stats = Bm25Stats.decode(bytes);
      const good = Bm25Stats.fromDocuments(SMALL_DOCS);
      expect(stats.topK(["alpha", "beta"], 5)).toEqual(good.topK(["alpha", "beta"], 5));
      expect(stats.score(["beta"])).toEqual(good.score(["beta"]));
      expect(stats.idf("gamma")).toBe(good.idf("gamma"));
      expectCorrupt(() => stats.topK(["alpha", "gamma"], 5), message);
      // Nothing is marked decoded after a failure: every later use fails the same way.
      expectCorrupt(() => stats.score(["gamma"]), message);
      expectCorrupt(() => stats.contains(0, "gamma"), message);
      expectCorrupt(() => stats.collectionFrequencies(), message);
      expectCorrupt(() => stats.documentsWith("gamma"), /: the keyword index is damaged, rebuild it$/);
      // The bytes go back out as they came in, unread blocks included.
      expect(stats.encode()).toEqual(bytes);
    });
  }
});
