import { describe, expect, it } from "vitest";
import { splitLongSections } from "../../src/corpus/split-long-sections.js";
import { fitsBytes, splitLongText } from "../../src/corpus/split-long-text.js";
import type { Chunk } from "../../src/types.js";

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

/** Checks that `parts` are `text` in order with only blanks between them (the breaks cut at). */
function expectPartsOfText(parts: string[], text: string): void {
  let at = 0;
  for (const part of parts) {
    const found = text.indexOf(part, at);
    expect(found, "part in order").toBeGreaterThanOrEqual(at);
    expect(text.slice(at, found).trim(), "only blanks between parts").toBe("");
    at = found + part.length;
  }
  expect(text.slice(at).trim()).toBe("");
}

describe("splitLongText", () => {
  it("cuts a 20 MB line without any break into parts within the limit that concatenate to the line", () => {
    const line = "x".repeat(20 * 1024 * 1024);
    const parts = splitLongText(line, 65_536);
    expect(parts).toHaveLength(320);
    for (const part of parts) expect(bytes(part)).toBeLessThanOrEqual(65_536);
    expect(parts.join("")).toBe(line);
  });

  it("never splits a multi-byte character, however the limit falls", () => {
    const text = "é€😀a".repeat(1_000);
    for (const limit of [4, 5, 7, 10, 101, 1000]) {
      const parts = splitLongText(text, limit);
      for (const part of parts) {
        expect(bytes(part)).toBeLessThanOrEqual(limit);
        expect(part).not.toMatch(/\p{Cs}/u);
        expect(Buffer.from(part, "utf8").toString("utf8")).toBe(part);
      }
      expect(parts.join("")).toBe(text);
    }
  });

  it("packs whole paragraphs, then cuts a longer paragraph at line breaks, then a longer line at spaces", () => {
    const paragraphs = ["alpha beta", "gamma delta", "one long line ".repeat(10).trim() + "\nsecond line here"];
    const text = paragraphs.join("\n\n");
    const parts = splitLongText(text, 30);
    expect(parts.slice(0, 1)).toEqual(["alpha beta\n\ngamma delta"]);
    for (const part of parts) expect(bytes(part)).toBeLessThanOrEqual(30);
    expect(parts).toContain("second line here");
    for (const part of parts) expect(part).not.toMatch(/^\s|\s$/);
    expect(parts.every((part) => !part.includes("\n\n") || part === parts[0])).toBe(true);
    expectPartsOfText(parts, text);
  });

  it("keeps words whole when a line has spaces", () => {
    const text = Array.from({ length: 2_000 }, (_, i) => `word${i}`).join(" ");
    const parts = splitLongText(text, 100);
    for (const part of parts) expect(bytes(part)).toBeLessThanOrEqual(100);
    expect(parts.join(" ")).toBe(text);
  });

  it("returns a text within the limit as one trimmed part, and nothing for blank text", () => {
    expect(splitLongText("  short text \n", 100)).toEqual(["short text"]);
    expect(splitLongText(" \n\t ", 100)).toEqual([]);
  });

  it("gives the same parts for the same text and limit", () => {
    const text = "Lorem ipsum dolor sit amet.\n".repeat(3_000) + "z".repeat(9_000);
    expect(splitLongText(text, 1_000)).toEqual(splitLongText(text, 1_000));
  });

  it("counts bytes as UTF-8 does", () => {
    expect(fitsBytes("€€", 6)).toBe(true);
    expect(fitsBytes("€€", 5)).toBe(false);
    expect(fitsBytes("😀", 4)).toBe(true);
    expect(fitsBytes("😀", 3)).toBe(false);
  });
});

describe("splitLongSections", () => {
  const chunk = (source: string, content: string): Chunk => ({
    source,
    file: "a.md",
    title: "A",
    breadcrumb: ["A", "Long"],
    content,
    meta: { title: "A", keywords: [], entities: [], aliases: [] },
  });

  it("splits only the sections over the limit, numbering the parts after the section's own id", () => {
    const long = "y".repeat(250);
    const result = splitLongSections([chunk("a.md#short", "short"), chunk("a.md#long", long), chunk("a.md#tail", "tail")], 100);
    expect(result.chunks.map((c) => c.source)).toEqual(["a.md#short", "a.md#long", "a.md#long/2", "a.md#long/3", "a.md#tail"]);
    expect(result.chunks.map((c) => c.content.length)).toEqual([5, 100, 100, 50, 4]);
    expect(result.chunks[2].breadcrumb).toEqual(["A", "Long"]);
    expect(result).toMatchObject({ splitCount: 1, partCount: 3 });
    expect(new Set(result.chunks.map((c) => c.source)).size).toBe(result.chunks.length);
  });

  it("returns the very chunks it was given when none is over the limit", () => {
    const chunks = [chunk("a.md#one", "one"), chunk("a.md#two", "two")];
    const result = splitLongSections(chunks, 100);
    expect(result.chunks).toEqual(chunks);
    expect(result.chunks[0]).toBe(chunks[0]);
    expect(result.splitCount).toBe(0);
  });
});
