import { describe, expect, it } from "vitest";
import { splitParagraphs } from "../../src/documents/split-paragraphs.js";

describe("splitParagraphs", () => {
  it("packs whole paragraphs up to the limit and starts a new chunk when the next would not fit", () => {
    const text = ["a".repeat(40), "b".repeat(40), "c".repeat(40)].join("\n\n");
    expect(splitParagraphs(text, 90)).toEqual([`${"a".repeat(40)}\n\n${"b".repeat(40)}`, "c".repeat(40)]);
  });

  it("gives no chunk for blank text and drops blank paragraphs", () => {
    expect(splitParagraphs("  \n\n \t\n\n", 10)).toEqual([]);
    expect(splitParagraphs("one\n\n\n\n two ", 100)).toEqual(["one\n\ntwo"]);
  });

  it("cuts a long paragraph at line breaks, then spaces, then hard, never over the limit", () => {
    const lines = "first line here\nsecond line here\nthird";
    expect(splitParagraphs(lines, 20)).toEqual(["first line here", "second line here", "third"]);
    expect(splitParagraphs("alpha beta gamma delta", 11)).toEqual(["alpha beta", "gamma delta"]);
    const hard = splitParagraphs("x".repeat(25), 10);
    expect(hard).toEqual(["x".repeat(10), "x".repeat(10), "x".repeat(5)]);
  });

  it("never cuts a surrogate pair in half", () => {
    const parts = splitParagraphs("😀".repeat(6), 5);
    expect(parts.join("")).toBe("😀".repeat(6));
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(5);
    for (const part of parts) expect(part).toMatch(/^(?:😀)+$/u);
  });

  it("splits a 2 MB line without breaks into pieces of the limit, in linear time", () => {
    const parts = splitParagraphs("y".repeat(2_000_000), 2000);
    expect(parts).toHaveLength(1000);
    expect(parts.every((part) => part.length === 2000)).toBe(true);
  });
});
