import { describe, expect, it } from "vitest";
import { parseLines } from "../../bench/report/parse-lines.js";
import type { CorpusParseTiming } from "../../bench/tasks/parse-task.js";

const timing = (corpus: string, files: number, previous: number, grayMatter: number): CorpusParseTiming => ({
  corpus,
  files,
  bytes: files * 1_000,
  rounds: 9,
  frontmatterMs: { previous, grayMatter },
  fileParseMs: { previous: previous * 2, grayMatter: grayMatter * 2 },
  frontmatterRatio: { median: grayMatter / previous, min: 0.9, max: 1.5 },
  fileParseRatio: { median: grayMatter / previous, min: 0.8, max: 1.4 },
  loadCorpusMs: previous * 10,
  differingFiles: 0,
});

describe("parseLines", () => {
  it("prints nothing when the corpus parse neither ran nor failed", () => {
    expect(parseLines({ corpusParse: null, failures: [] })).toEqual([]);
    expect(parseLines({ failures: [] })).toEqual([]);
  });

  it("puts gray-matter beside the previous frontmatter path per corpus, as a ratio", () => {
    const text = parseLines({
      corpusParse: {
        corpora: [timing("sample corpus (corpus/)", 66, 4, 5), timing("generated (10,000 files)", 10_000, 400, 380)],
      },
      failures: [],
    }).join("\n");

    expect(text).toContain("medians of 9 rounds");
    expect(text).toMatch(
      /^sample corpus \(corpus\/\) +66 +4\.00 +5\.00 +1\.3x \(0\.90x to 1\.5x\) +8\.00 +10\.0 +1\.3x \(0\.80x to 1\.4x\) +40\.0 +0$/m,
    );
    expect(text).toMatch(
      /^generated \(10,000 files\) +10,000 +400 +380 +0\.95x \(0\.90x to 1\.5x\) +800 +760 +0\.95x \(0\.80x to 1\.4x\) +4000 +0$/m,
    );
  });

  it("keeps what a failed run measured and says why it failed", () => {
    const lines = parseLines({
      corpusParse: { corpora: [timing("sample corpus (corpus/)", 66, 4, 4)] },
      failures: [{ step: "parse", size: 10_000, message: "killed after 300 s" }],
    });
    expect(lines.join("\n")).toMatch(/sample corpus/);
    expect(lines.at(-1)).toBe("  FAILED: killed after 300 s");
  });
});
