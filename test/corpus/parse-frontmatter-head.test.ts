import matter from "gray-matter";
import { describe, expect, it } from "vitest";
import { opensFrontmatter } from "../../src/corpus/frontmatter-fence.js";
import { grayMatterOptions } from "../../src/corpus/gray-matter-options.js";
import { normalizeNewlines } from "../../src/corpus/normalize-newlines.js";
import { mayExceedCommentScanBudget, parseFrontmatter } from "../../src/corpus/parse-frontmatter.js";
import { mulberry32 } from "../../src/seeded-random.js";

/** What gray-matter gives for the whole text, with the options `parseFrontmatter` uses. */
function wholeFile(text: string): { data: unknown; body: string } {
  const file = matter(text, grayMatterOptions(opensFrontmatter(text) ? matter.language(text).name : ""));
  return { data: file.data, body: file.content };
}

const CASES: [string, string][] = [
  ["a byte order mark", "\uFEFF---\ntitle: A\n---\nbody\n"],
  ["CRLF line breaks", "---\r\ntitle: A\r\n---\r\n\r\nbody\r\n"],
  ["--- lines inside the body", "---\na: x\n---\ntext\n---\nb: y\n---\nmore\n---"],
  ["an empty frontmatter", "---\n---\nbody"],
  ["a comments-only frontmatter", "---json\n# a note\n---\n\nbody"],
  ["a frontmatter-only file ending at the closing line", "---\na: x\n---"],
  ["a frontmatter-only file ending after the closing line", "---\na: x\n---\n"],
  ["blanks after the closing ---", "---\na: x\n--- \t\nbody"],
  ["blank lines after the closing line", "---\na: x\n---\n\n\n# Heading\nbody"],
  ["a language in capitals", '---JSON\n{ "a": "x" }\n---\nbody'],
  ["a language with blanks around it", "--- yml \na: x\n---\nbody"],
  ["an excerpt separator in the frontmatter", "---\nexcerpt_separator: <!-- more -->\n---\nintro\n<!-- more -->\nrest"],
];

describe("parseFrontmatter hands gray-matter the file up to its closing line", () => {
  it.each(CASES)("and gives what gray-matter gives for the whole file, with %s", (_label, raw) => {
    const text = normalizeNewlines(raw);
    expect(parseFrontmatter(text)).toEqual(wholeFile(text));
  });

  it("and agrees with gray-matter on the whole file for 2,000 generated files with frontmatter", () => {
    const random = mulberry32(41);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const lines = (from: readonly string[], most: number) => Array.from({ length: Math.floor(random() * (most + 1)) }, () => pick(from));
    let withData = 0;
    for (let n = 0; n < 2_000; n++) {
      const json = random() < 0.25;
      const opening = json ? pick(["---json", "--- JSON "]) : pick(["---", "---yaml", "---yml", "--- YAML", "---\t"]);
      const block = json ? pick([[], ['{ "a": "x" }'], ["{", '  "b": [1, 2]', "}"]]) : lines(["a: x", "b: [1, 2]", "# note", "", " ", "c: --- x"], 4).map((line, i) => line.replace(/^([abc]):/, `$1${i}:`));
      const closing = `---${pick(["", "", " ", "\t", " \t"])}`;
      const body = random() < 0.2 ? [] : ["", ...lines(["", "body", "---", "----", "# Heading", " ", "a: y", "---json"], 6)];
      const text = [opening, ...block, closing].join("\n") + body.join("\n") + pick(["", "\n"]);
      const got = parseFrontmatter(text);
      if (Object.keys(got.data).length > 0) withData++;
      expect(got, JSON.stringify(text)).toEqual(wholeFile(text));
    }
    expect(withData).toBeGreaterThan(1_000);
  });
});

describe("mayExceedCommentScanBudget", () => {
  it("skips the scan only for blocks too short to reach the budget, even when they are all line breaks", () => {
    const longestSkipped = Array.from({ length: 10_000 }, (_, chars) => chars).filter((chars) => !mayExceedCommentScanBudget(chars)).at(-1) ?? 0;

    expect(longestSkipped).toBeGreaterThan(1_000);
    expect(parseFrontmatter(`---${"\n".repeat(longestSkipped - 7)}a: x\n---\nbody`).data).toEqual({ a: "x" });
    expect(mayExceedCommentScanBudget(longestSkipped + 1)).toBe(true);
  });
});
