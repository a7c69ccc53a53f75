import { describe, expect, it } from "vitest";
import { splitFrontmatter } from "../../src/corpus/split-frontmatter.js";
import { LookupKnowledgeError } from "../../src/errors.js";

describe("splitFrontmatter", () => {
  it("returns the whole text as the body when the file does not open with ---", () => {
    expect(splitFrontmatter("# Title\nbody\n---\nmore")).toEqual({ language: null, block: null, body: "# Title\nbody\n---\nmore" });
    expect(splitFrontmatter(" ---\ntitle: x\n---\n").block).toBeNull();
  });

  it("does not read a line of four or more dashes as an opening delimiter", () => {
    expect(splitFrontmatter("----\ntitle: x\n---\nbody")).toEqual({ language: null, block: null, body: "----\ntitle: x\n---\nbody" });
  });

  it("splits the block between the delimiters from the body after them", () => {
    expect(splitFrontmatter("---\ntitle: A\nkeywords: [a]\n---\n\nBody.\n")).toEqual({ language: "", block: "title: A\nkeywords: [a]", body: "\nBody.\n" });
  });

  it("reads the language after the opening delimiter, trimmed", () => {
    expect(splitFrontmatter("---yaml\na: 1\n---\nx").language).toBe("yaml");
    expect(splitFrontmatter("--- json \n{}\n---\nx").language).toBe("json");
    expect(splitFrontmatter("---js\n{ a: 1 }\n---\nx")).toEqual({ language: "js", block: "{ a: 1 }", body: "x" });
  });

  it("accepts an empty block and a closing delimiter with trailing blanks", () => {
    expect(splitFrontmatter("---\n---\nbody")).toEqual({ language: "", block: "", body: "body" });
    expect(splitFrontmatter("---\na: 1\n--- \t\nbody")).toEqual({ language: "", block: "a: 1", body: "body" });
    expect(splitFrontmatter("---\na: 1\n---")).toEqual({ language: "", block: "a: 1", body: "" });
  });

  it("closes only on a line that is exactly ---, so later thematic breaks stay in the body", () => {
    expect(splitFrontmatter("---\na: 1\n----\n---x\n  ---\nb: 2\n---\ntext\n---\nmore")).toEqual({
      language: "",
      block: "a: 1\n----\n---x\n  ---\nb: 2",
      body: "text\n---\nmore",
    });
  });

  it.each([
    ["a block without a closing line", "---\ntitle: x\n\n# Heading\nbody\n"],
    ["an opening line alone", "---"],
    ["an opening line with a language and nothing else", "---yaml"],
  ])("throws CORPUS_FILE_INVALID for %s", (_label, text) => {
    let caught: unknown;
    try {
      splitFrontmatter(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LookupKnowledgeError);
    expect(caught).toMatchObject({ code: "CORPUS_FILE_INVALID", message: expect.stringMatching(/never closed/) });
  });

  it("splits a block of a million near-miss delimiter lines in linear time", () => {
    const block = "--x\n---y\n".repeat(500_000);

    const split = splitFrontmatter(`---\n${block}---\nbody`);

    expect(split.block).toBe(block.slice(0, -1));
    expect(split.body).toBe("body");
  });
});
