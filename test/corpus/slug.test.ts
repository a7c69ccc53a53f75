import { describe, expect, it } from "vitest";
import { createSlugger, slugify } from "../../src/corpus/slug.js";

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

  it("keeps the slugs of separate sluggers independent", () => {
    const first = createSlugger();
    const second = createSlugger();
    first("Intro");

    expect(second("Intro")).toBe("intro");
  });
});
