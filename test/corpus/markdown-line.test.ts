import { describe, expect, it } from "vitest";
import { fenceMarker, parseHeading } from "../../src/corpus/markdown-line.js";

/**
 * The heading pattern the chunker used before it became a linear scan. It backtracks
 * catastrophically on long lines, so it only serves as the oracle for short ones here.
 */
const OLD_HEADING = /^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$/;

function oldParse(line: string): { depth: number; text: string } | null {
  const match = OLD_HEADING.exec(line);
  return match ? { depth: match[1].length, text: match[2].trim() } : null;
}

/** Every string of length 0..maxLength over `alphabet`. */
function* allStrings(alphabet: readonly string[], maxLength: number): Generator<string> {
  let level = [""];
  for (let length = 0; length <= maxLength; length++) {
    yield* level;
    level = level.flatMap((prefix) => alphabet.map((char) => prefix + char));
  }
}

describe("parseHeading", () => {
  it("agrees with the old heading pattern on every short line of hashes, blanks, letters and separators", () => {
    const lines = [...allStrings(["#", " ", "\t", "a", "\u00a0", "\u2028"], 7)];
    const disagreements = lines.filter((line) => JSON.stringify(parseHeading(line)) !== JSON.stringify(oldParse(line)));

    expect(lines).toHaveLength(335_923);
    expect(lines.filter((line) => oldParse(line) !== null).length).toBeGreaterThan(5_000);
    expect(disagreements).toEqual([]);
  });

  it("agrees with the old heading pattern on realistic headings", () => {
    for (const line of ["# Deploy", "## Install ##", "### C# ##", "###### Six", "####### Seven", "#hashtag", "## ", "##  ", "## ##", "##\tTabbed\t#\t", "# a # b #", "# Ünïcode  "]) {
      expect(parseHeading(line), line).toEqual(oldParse(line));
    }
  });

  it.each([
    ["spaces", `# ${" ".repeat(20_000)}x`, 1, "x"],
    ["trailing spaces", `# x${" ".repeat(20_000)}`, 1, "x"],
    ["tabs only", `## ${"\t".repeat(20_000)}`, 2, ""],
    ["a run of hashes", `# ${"#".repeat(20_000)}`, 1, "#"],
    ["hashes between words", `### a${" #".repeat(10_000)} b`, 3, `a${" #".repeat(10_000)} b`],
    ["mixed blanks and hashes", `# ${" \t#".repeat(10_000)}`, 1, `#${" \t#".repeat(9_998)}`],
  ])("reads a heading line of 20,000 or more characters of %s in linear time", (_label, line, depth, text) => {
    expect(line.length).toBeGreaterThanOrEqual(20_000);
    expect(parseHeading(line)).toEqual({ depth, text });
  });

  it("reads 50 heading lines of 400,000 characters each in linear time", () => {
    const lines = Array.from({ length: 50 }, (_, i) => `## ${" ".repeat(200_000)}${i} ${"#".repeat(100_000)}${"\t".repeat(100_000)}`);

    expect(lines.map((line) => parseHeading(line)?.text)).toEqual(lines.map((_, i) => String(i)));
  });

  it("is not a heading when the line holds a line separator, as before", () => {
    expect(parseHeading("# a\u2028b")).toBeNull();
  });
});

describe("fenceMarker", () => {
  it.each([
    ["```", "```"],
    ["```bash", "```"],
    ["   ~~~", "~~~"],
    ["\t\t\t```", "```"],
    ["    ```", null],
    ["``", null],
    ["text ```", null],
    ["~~ ~", null],
  ])("reads %j as the fence %j", (line, marker) => {
    expect(fenceMarker(line)).toBe(marker);
  });

  it("scans a 30 KB line of blanks without a fence in constant time", () => {
    expect(fenceMarker(" ".repeat(30_000))).toBeNull();
  });
});
