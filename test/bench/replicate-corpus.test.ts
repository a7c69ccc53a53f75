import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../bench/dataset/mulberry32.js";
import { copySeed, perturbText, replicateCorpus, type SourceDocument } from "../../bench/dataset/replicate-corpus.js";

const words = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(" ");
const DOCS: SourceDocument[] = [
  { id: "a", title: "Alpha", text: words(60, "a"), metadata: {} },
  { id: "b", title: "Beta", text: words(40, "b"), metadata: { category: "x" } },
  { id: "c", title: "Gamma", text: words(80, "c"), metadata: {} },
];

describe("mulberry32", () => {
  it("gives the same sequence for the same seed and another for another seed", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const first = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(first);
    expect(Array.from({ length: 5 }, mulberry32(43))).not.toEqual(first);
    for (const value of first) expect(value >= 0 && value < 1).toBe(true);
  });

  it("matches the reference implementation's outputs", () => {
    const random = mulberry32(1);
    expect([random(), random()].map((value) => value * 2 ** 32)).toEqual([2693262067, 11749833]);
    expect(mulberry32(2_000_007)()).toBeCloseTo(0.5458890225272626, 15);
  });
});

describe("replicateCorpus", () => {
  it("returns the first documents unchanged when the size is at most the corpus", () => {
    expect(replicateCorpus(DOCS, 2)).toEqual(DOCS.slice(0, 2));
  });

  it("adds copy 1 of every document, then copy 2, with ids <id>_r<r>, titles and metadata kept", () => {
    const out = replicateCorpus(DOCS, 8);
    expect(out.map((doc) => doc.id)).toEqual(["a", "b", "c", "a_r1", "b_r1", "c_r1", "a_r2", "b_r2"]);
    expect(out[4].title).toBe("Beta");
    expect(out[4].metadata).toEqual({ category: "x" });
  });

  it("is the same on every run, and every copy differs from its original and from other copies", () => {
    const once = replicateCorpus(DOCS, 9);
    expect(replicateCorpus(DOCS, 9)).toEqual(once);
    const texts = once.map((doc) => doc.text);
    expect(new Set(texts).size).toBe(texts.length);
  });

  it("seeds copy r of document i with r * 1,000,003 + i", () => {
    const stream = DOCS.flatMap((doc) => doc.text.split(" "));
    const expected = perturbText(DOCS[1].text, stream, mulberry32(copySeed(2, 1)));
    expect(replicateCorpus(DOCS, 8)[7].text).toBe(expected);
    expect(copySeed(2, 1)).toBe(2_000_007);
  });

  it("drops about 5% of the words and keeps the rest from the token stream", () => {
    const text = words(10_000, "w");
    const out = perturbText(text, ["zzz"], mulberry32(7)).split(" ");
    expect(out.length).toBeGreaterThan(9_300);
    expect(out.length).toBeLessThan(9_700);
    const replaced = out.filter((word) => word === "zzz").length;
    expect(replaced).toBeGreaterThan(350);
    expect(replaced).toBeLessThan(650);
  });
});
