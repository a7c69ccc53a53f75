import { describe, expect, it } from "vitest";
import { createSlugger, MAX_SLUG_LENGTH, slugify } from "../../src/corpus/slug.js";

describe("slugify", () => {
  it.each([
    ["Hello, World!", "hello-world"],
    ["Café Déjà vu", "cafe-deja-vu"],
    ["  Multiple   spaces  ", "multiple-spaces"],
    ["API v2.0 (beta)", "api-v20-beta"],
    ["foo - bar", "foo---bar"],
    ["snake_case_name", "snakecasename"],
    ["日本語 テスト", "日本語-テスト"],
    ["!!!", "section"],
    ["", "section"],
  ])("turns %j into %j", (heading, slug) => {
    expect(slugify(heading)).toBe(slug);
  });
});

describe("slug length", () => {
  it(`cuts a slug to ${MAX_SLUG_LENGTH} characters`, () => {
    expect(MAX_SLUG_LENGTH).toBe(100);
    expect(slugify("Word ".repeat(6_000))).toBe("word-".repeat(20));
    expect(slugify("a".repeat(30_000))).toBe("a".repeat(100));
  });

  it("never cuts a character in half", () => {
    const slug = slugify(`${"a".repeat(99)}𠀀𠀀`);

    expect(slug).toBe(`${"a".repeat(99)}𠀀`);
    expect(Array.from(slug)).toHaveLength(100);
  });

  it("keeps long repeated headings unique with a suffix after the cut", () => {
    const slug = createSlugger();
    const long = "x".repeat(300);

    expect([long, long, `${long}y`].map(slug)).toEqual(["x".repeat(100), `${"x".repeat(100)}-1`, `${"x".repeat(100)}-2`]);
  });
});

describe("createSlugger", () => {
  it("suffixes repeated headings -1, -2 in order", () => {
    const slug = createSlugger();

    expect(["Steps", "Steps", "steps!", "Other"].map(slug)).toEqual(["steps", "steps-1", "steps-2", "other"]);
  });

  it("never hands out the same slug twice, even when a heading looks like a suffixed one", () => {
    const slug = createSlugger();
    const slugs = ["a", "a", "a-1", "a-1"].map(slug);

    expect(new Set(slugs).size).toBe(4);
    expect(slugs.slice(0, 2)).toEqual(["a", "a-1"]);
  });

  it("hands out -1 to -49999 to 50,000 identical headings in linear time", () => {
    const slug = createSlugger();

    const slugs = Array.from({ length: 50_000 }, () => slug("Step"));

    expect(slugs.slice(0, 3)).toEqual(["step", "step-1", "step-2"]);
    expect(slugs[49_999]).toBe("step-49999");
    expect(new Set(slugs).size).toBe(50_000);
  });

  it("stays unique and linear when repeated headings interleave with headings that look suffixed", () => {
    const slug = createSlugger();
    const headings = Array.from({ length: 30_000 }, (_, i) => (i % 3 === 0 ? `a-${i}` : "a"));

    const slugs = headings.map(slug);

    expect(new Set(slugs).size).toBe(headings.length);
    expect(slugs.slice(0, 4)).toEqual(["a-0", "a", "a-1", "a-3"]);
  });

  it("gives the same slugs as the one-by-one search for the lowest free suffix", () => {
    const headings = ["x", "x-2", "x", "x", "x", "x-1", "x-1", "y", "x-3", "x"];
    const used = new Set<string>();
    const expected = headings.map((heading) => {
      let candidate = slugify(heading);
      for (let i = 1; used.has(candidate); i++) candidate = `${slugify(heading)}-${i}`;
      used.add(candidate);
      return candidate;
    });

    expect(headings.map(createSlugger())).toEqual(expected);
  });

  it("keeps the slugs of separate sluggers independent", () => {
    const first = createSlugger();
    const second = createSlugger();
    first("Intro");

    expect(second("Intro")).toBe("intro");
  });
});
