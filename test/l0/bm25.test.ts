import { describe, expect, it } from "vitest";
import { Bm25Stats } from "../../src/l0/bm25.js";
import { LookupKnowledgeError } from "../../src/errors.js";

/*
 * Worked by hand with the defaults k1 = 0.9, b = 0.4.
 *
 *   d0 = refund policy               dl = 2
 *   d1 = refund refund delay         dl = 3
 *   d2 = access request policy form  dl = 4
 *   N = 3, avgdl = 9 / 3 = 3
 *
 * idf = ln(1 + (N - df + 0.5) / (df + 0.5))
 *   df 2 (refund, policy): ln(1 + 1.5 / 2.5) = ln 1.6   = 0.470003629...
 *   df 1 (delay, ...):     ln(1 + 2.5 / 1.5) = ln(8/3) = 0.980829253...
 *
 * K(d) = k1 * (1 - b + b * dl / avgdl)
 *   K(d0) = 0.9 * (0.6 + 0.4 * 2/3) = 0.78
 *   K(d1) = 0.9 * (0.6 + 0.4 * 3/3) = 0.90
 *   K(d2) = 0.9 * (0.6 + 0.4 * 4/3) = 1.02
 *
 * term score = idf * tf * (k1 + 1) / (tf + K(d))
 *   refund in d0: 0.470003629 * 1 * 1.9 / (1 + 0.78) = 0.501689267...
 *   refund in d1: 0.470003629 * 2 * 1.9 / (2 + 0.90) = 0.615866825...
 *   policy in d0: same as refund in d0               = 0.501689267...
 *   policy in d2: 0.470003629 * 1 * 1.9 / (1 + 1.02) = 0.442082622...
 *   delay in d1:  0.980829253 * 1 * 1.9 / (1 + 0.90) = 0.980829253... (exactly idf)
 */
const DOCS = [
  ["refund", "policy"],
  ["refund", "refund", "delay"],
  ["access", "request", "policy", "form"],
];
const REFUND_D0 = 0.5016892671724144;
const REFUND_D1 = 0.615866824528895;
const POLICY_D2 = 0.44208262156777106;
const DELAY_D1 = 0.9808292530117262;

describe("Bm25Stats", () => {
  const stats = Bm25Stats.fromDocuments(DOCS);

  it("counts its documents", () => {
    expect(stats.size).toBe(3);
  });

  it("scores a one-term query against the hand-computed values", () => {
    const scores = stats.score(["refund"]);
    expect([...scores.keys()].sort()).toEqual([0, 1]);
    expect(scores.get(0)).toBeCloseTo(REFUND_D0, 12);
    expect(scores.get(1)).toBeCloseTo(REFUND_D1, 12);
  });

  it("sums term scores over a multi-term query", () => {
    const scores = stats.score(["refund", "policy"]);
    expect(scores.size).toBe(3);
    expect(scores.get(0)).toBeCloseTo(2 * REFUND_D0, 12);
    expect(scores.get(1)).toBeCloseTo(REFUND_D1, 12);
    expect(scores.get(2)).toBeCloseTo(POLICY_D2, 12);
  });

  it("counts a repeated query term once per occurrence", () => {
    expect(stats.score(["delay"]).get(1)).toBeCloseTo(DELAY_D1, 12);
    expect(stats.score(["delay", "delay"]).get(1)).toBeCloseTo(2 * DELAY_D1, 12);
  });

  it("uses the k1 and b it was given", () => {
    // k1 = 1.2, b = 0.75: K(d1) = 1.2 * (0.25 + 0.75) = 1.2, so 0.470003629 * 2 * 2.2 / 3.2.
    const tuned = Bm25Stats.fromDocuments(DOCS, { k1: 1.2, b: 0.75 });
    expect(tuned.score(["refund"]).get(1)).toBeCloseTo(0.6462549902128865, 12);
  });

  it("returns no scores for an empty query", () => {
    expect(stats.score([]).size).toBe(0);
  });

  it("ignores terms that no document contains", () => {
    expect(stats.score(["unknown"]).size).toBe(0);
    const scores = stats.score(["unknown", "delay"]);
    expect([...scores.keys()]).toEqual([1]);
    expect(scores.get(1)).toBeCloseTo(DELAY_D1, 12);
  });

  it("scores only the requested documents, with 0 for those that match nothing", () => {
    const scores = stats.score(["refund", "policy"], [2, 1, 1]);
    expect([...scores.keys()].sort()).toEqual([1, 2]);
    expect(scores.get(1)).toBeCloseTo(REFUND_D1, 12);
    expect(scores.get(2)).toBeCloseTo(POLICY_D2, 12);
    expect(stats.score(["delay"], [0])).toEqual(new Map([[0, 0]]));
  });

  it("gives the same score to a document whether or not doc ids are given", () => {
    const many = Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? ["refund", "policy"] : ["access", `t${i}`]));
    const big = Bm25Stats.fromDocuments(many);
    const all = big.score(["refund", "access"]);
    // One id takes the binary-search path, all ids take the postings walk.
    for (const ids of [[3], [...all.keys()]]) {
      const some = big.score(["refund", "access"], ids);
      for (const id of ids) expect(some.get(id)).toBeCloseTo(all.get(id) ?? NaN, 12);
    }
  });

  it("answers scoring calls independently of earlier ones", () => {
    stats.score(["refund", "policy", "delay"]);
    expect(stats.score(["refund"]).get(0)).toBeCloseTo(REFUND_D0, 12);
  });

  it("rejects doc ids outside the corpus", () => {
    expect(() => stats.score(["refund"], [3])).toThrow(LookupKnowledgeError);
    expect(() => stats.score(["refund"], [-1])).toThrow(LookupKnowledgeError);
    expect(() => stats.score(["refund"], [0.5])).toThrow(LookupKnowledgeError);
  });

  it("rejects out-of-range parameters", () => {
    expect(() => Bm25Stats.fromDocuments(DOCS, { k1: -1 })).toThrow(/k1/);
    expect(() => Bm25Stats.fromDocuments(DOCS, { b: 1.5 })).toThrow(/b must be/);
  });

  it("handles an empty corpus and empty documents", () => {
    expect(Bm25Stats.fromDocuments([]).score(["refund"]).size).toBe(0);
    const withEmpty = Bm25Stats.fromDocuments([[], ["refund"]]);
    expect(withEmpty.size).toBe(2);
    expect([...withEmpty.score(["refund"]).keys()]).toEqual([1]);
  });

  it("survives a binary round trip with identical scores", () => {
    const restored = Bm25Stats.decode(stats.encode());
    expect(restored.size).toBe(3);
    expect(restored.terms).toEqual(stats.terms);
    expect(restored.score(["refund", "policy", "delay"])).toEqual(stats.score(["refund", "policy", "delay"]));
    expect(restored.encode()).toEqual(stats.encode());
  });

  it("rejects malformed postings with INDEX_CORRUPT", () => {
    const bytes = stats.encode();
    const cases = [
      bytes.subarray(0, bytes.length - 1),
      Uint8Array.from([...bytes, 0]),
      new Uint8Array(0),
      Uint8Array.from([3, 123, 125, 0]),
    ];
    for (const broken of cases) {
      try {
        Bm25Stats.decode(broken);
        expect.unreachable("decoded malformed postings");
      } catch (error) {
        expect(error).toBeInstanceOf(LookupKnowledgeError);
        expect((error as LookupKnowledgeError).code).toBe("INDEX_CORRUPT");
      }
    }
  });

  it("ranks with topK exactly as sorting the exhaustive scores, ties by smaller id", () => {
    const ranked = stats.topK(["refund", "policy"], 10);
    expect(ranked.map((hit) => hit.id)).toEqual([0, 1, 2]);
    expect(ranked[0].score).toBe(stats.score(["refund", "policy"]).get(0));
    expect(stats.topK(["refund", "policy"], 1)).toEqual([ranked[0]]);
    expect(stats.topK(["nothing"], 5)).toEqual([]);
    expect(stats.topK(["refund"], 0)).toEqual([]);
    expect(stats.topK(["refund", "policy"], 10, (doc) => doc !== 0).map((hit) => hit.id)).toEqual([1, 2]);
  });
});
