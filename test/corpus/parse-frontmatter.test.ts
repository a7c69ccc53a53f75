import matter from "gray-matter";
import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "../../src/corpus/parse-frontmatter.js";
import { LookupKnowledgeError } from "../../src/errors.js";

function failureOf(text: string): unknown {
  try {
    parseFrontmatter(text);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("parseFrontmatter", () => {
  it("returns the whole text as the body when the file does not open with ---", () => {
    expect(parseFrontmatter("# Title\nbody\n---\nmore")).toEqual({ data: {}, body: "# Title\nbody\n---\nmore" });
    expect(parseFrontmatter(" ---\ntitle: x\n---\n")).toEqual({ data: {}, body: " ---\ntitle: x\n---\n" });
  });

  it("does not read a line of four or more dashes as an opening delimiter", () => {
    expect(parseFrontmatter("----\ntitle: x\n---\nbody")).toEqual({ data: {}, body: "----\ntitle: x\n---\nbody" });
  });

  it("parses the block as data and keeps the body after the closing line", () => {
    expect(parseFrontmatter("---\ntitle: A\nkeywords: [a]\n---\n\nBody.\n")).toEqual({ data: { title: "A", keywords: ["a"] }, body: "\nBody.\n" });
  });

  it("reads the language after the opening delimiter, trimmed and in any case", () => {
    expect(parseFrontmatter("---yaml\na: x\n---\nb").data).toEqual({ a: "x" });
    expect(parseFrontmatter("--- YML \na: x\n---\nb").data).toEqual({ a: "x" });
    expect(parseFrontmatter('--- json \n{ "a": "x" }\n---\nb')).toEqual({ data: { a: "x" }, body: "b" });
    expect(parseFrontmatter('---JSON\n{ "a": "x" }\n---\nb').data).toEqual({ a: "x" });
  });

  it("accepts an empty block, a comments-only block, a closing line with trailing blanks and a file that ends at the closing line", () => {
    expect(parseFrontmatter("---\n---\nbody")).toEqual({ data: {}, body: "body" });
    expect(parseFrontmatter("---json\n# a note\n---\nbody")).toEqual({ data: {}, body: "body" });
    expect(parseFrontmatter("---\na: x\n--- \t\nbody")).toEqual({ data: { a: "x" }, body: " \t\nbody" });
    expect(parseFrontmatter("---\na: x\n---")).toEqual({ data: { a: "x" }, body: "" });
  });

  it("closes at the first line opening with ---, so later --- lines stay in the body", () => {
    expect(parseFrontmatter("---\na: x\n---\ntext\n---\nb: y\n---\nmore")).toEqual({ data: { a: "x" }, body: "text\n---\nb: y\n---\nmore" });
  });

  it.each([
    ["a fourth dash", "---\na: x\n----\nbody"],
    ["a word", "---\na: x\n---x\nbody"],
    ["a language name", "---\na: x\n---yaml\nbody"],
  ])("refuses a closing line with %s after its dashes rather than start the body with it", (_label, text) => {
    expect(failureOf(text)).toMatchObject({ code: "CORPUS_FILE_INVALID", message: expect.stringContaining('the line that closes it holds more than "---"') });
  });

  it.each([
    ["a block without a closing line", "---\ntitle: x\n\n# Heading\nbody\n"],
    ["an opening line alone", "---"],
    ["an opening line and a line break", "---\n"],
    ["an opening line with a language and nothing else", "---yaml"],
  ])("throws CORPUS_FILE_INVALID for %s, which gray-matter would read to the end as frontmatter", (_label, text) => {
    const caught = failureOf(text);
    expect(caught).toBeInstanceOf(LookupKnowledgeError);
    expect(caught).toMatchObject({ code: "CORPUS_FILE_INVALID", message: expect.stringMatching(/never closed/) });
  });

  it.each(["js", "javascript", "coffee", "coffeescript", "cson", "toml", "python", "constructor", "__proto__", "toString", "hasOwnProperty"])(
    "refuses the language %s by name, even when its block is empty",
    (language) => {
      for (const block of ["{ a: 1 }\n", ""]) {
        expect(failureOf(`---${language}\n${block}---\nbody`)).toMatchObject({
          code: "CORPUS_FILE_INVALID",
          message: expect.stringContaining(`frontmatter language "${language}" is not accepted`),
        });
      }
    },
  );

  it("gives each parse its own data object, so two files with the same text share nothing", () => {
    const text = "---\ntitle: Same\nkeywords: [a, b]\n---\nSame body.\n";

    const first = parseFrontmatter(text);
    (first.data.keywords as string[]).push("mutated");
    first.data.title = "Changed";
    const second = parseFrontmatter(text);

    expect(second.data).not.toBe(first.data);
    expect(second.data).toEqual({ title: "Same", keywords: ["a", "b"] });
    // gray-matter keeps this cache (undeclared in its types) only for calls without options. It is
    // handed the lines up to the closing one, so no key that starts the text may be in it.
    const cached = Object.keys((matter as unknown as { cache: object }).cache);
    expect(cached.filter((key) => text.startsWith(key))).toEqual([]);
  });

  it("keeps gray-matter's excerpt step off, even when the frontmatter names an excerpt separator", () => {
    // gray-matter's own excerpt step would search the body for this value and throw on it.
    const text = "---\ntitle: A\nexcerpt_separator:\n  toString: 1\n---\nbody\n";

    expect(parseFrontmatter(text)).toEqual({ data: { title: "A", excerpt_separator: { toString: "1" } }, body: "body\n" });
  });

  it.each([
    ["line breaks", "\n"],
    ["blank lines of spaces", " \n"],
    ["non-breaking spaces and line separators", "\u00a0\u2028"],
  ])("refuses a run of a million %s, which gray-matter's comment scan would read in quadratic time", (_label, unit) => {
    expect(failureOf(`---\n${unit.repeat(1_000_000)}title: x\n---\nbody`)).toMatchObject({
      code: "CORPUS_FILE_INVALID",
      message: expect.stringContaining("runs of thousands of blank lines"),
    });
  });

  it("reads blank lines as real frontmatter has them: a hundred in a row, and two between each of 20,000 fields", () => {
    expect(parseFrontmatter(`---\na: x\n${"\n".repeat(100)}b: y\n---\nbody`).data).toEqual({ a: "x", b: "y" });
    const fields = Array.from({ length: 20_000 }, (_, i) => `k${i}: v`).join("\n\n\n");
    expect(Object.keys(parseFrontmatter(`---\n${fields}\n---\nbody`).data)).toHaveLength(20_000);
  });

  it("reads a block of 100,000 lines that nearly close it", () => {
    const block = Array.from({ length: 100_000 }, (_, i) => `k${i}: --- x`).join("\n");

    expect(Object.keys(parseFrontmatter(`---\n${block}\n---\nbody`).data)).toHaveLength(100_000);
  });
});
