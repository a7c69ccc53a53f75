import matter from "gray-matter";
import { describe, expect, it } from "vitest";
import { opensFrontmatter } from "../../src/corpus/frontmatter-fence.js";
import { grayMatterOptions } from "../../src/corpus/gray-matter-options.js";
import { normalizeNewlines } from "../../src/corpus/normalize-newlines.js";

const TEXTS = [
  "",
  "-",
  "--",
  "---",
  "----",
  "---\n---\n",
  "----\ntitle: x\n---\nbody",
  "-----\n",
  " ---\ntitle: x\n---\n",
  "\n---\ntitle: x\n---\n",
  "# Title\nbody\n---\nmore",
  "\uFEFF---\ntitle: x\n---\nbody",
  "\uFEFF# Title\n",
  "---\r\ntitle: x\r\n---\r\nbody",
  "\r\n---\r\n",
  "---json\n{}\n---\n",
  "--- \na: x\n---\n",
  "--x\n",
];

describe("opensFrontmatter", () => {
  it.each(TEXTS)("agrees with gray-matter's test and its fourth-dash rule on %j", (text) => {
    expect(opensFrontmatter(text)).toBe(matter.test(text) && text.charAt(3) !== "-");
  });

  it.each(TEXTS.map(normalizeNewlines).filter((text) => !opensFrontmatter(text)))(
    "leaves %j as gray-matter does when it opens no frontmatter: no data, the text as content",
    (text) => {
      const file = matter(text, grayMatterOptions(""));
      expect(file.data).toEqual({});
      expect(file.content).toBe(text);
    },
  );

  it("opens a frontmatter that a byte order mark or CRLF line breaks hid, once the text is normalised", () => {
    expect(opensFrontmatter("\uFEFF---\ntitle: x\n---\n")).toBe(false);
    expect(opensFrontmatter(normalizeNewlines("\uFEFF---\r\ntitle: x\r\n---\r\n"))).toBe(true);
  });
});
