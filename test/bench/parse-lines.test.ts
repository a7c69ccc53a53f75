import { describe, expect, it } from "vitest";
import { parseLines } from "../../bench/report/parse-lines.js";
import type { CorpusParseTiming } from "../../bench/tasks/parse-task.js";

const timing = (corpus: string, files: number, previous: number, grayMatter: number): CorpusParseTiming => ({
  corpus,
  files,
  bytes: files * 1_000,
  rounds: 15,
  passes: files < 2_000 ? Math.ceil(2_000 / files) : 1,
  frontmatterMs: { previous, grayMatter },
  fileParseMs: { previous: previous * 2, grayMatter: grayMatter * 2 },
  frontmatterRatio: { median: grayMatter / previous, min: 0.9, max: 1.5 },
  fileParseRatio: { median: grayMatter / previous, min: 0.8, max: 1.4 },
  frontmatterCpuMs: { previous: previous / 2, grayMatter: grayMatter / 2 },
  fileParseCpuMs: { previous, grayMatter },
  frontmatterCpuRatio: { median: 1.04, min: 1.01, max: 1.09 },
  fileParseCpuRatio: { median: 1.02, min: 0.97, max: 1.06 },
  loadCorpusMs: previous * 10,
  loadCorpusCpuMs: previous * 5,
  differingFiles: 0,
});

/** The rows of the table that follows `title`. */
function tableAfter(lines: string[], title: string): string {
  const start = lines.indexOf(title);
  return lines[start + 1];
}

describe("parseLines", () => {
  it("prints nothing when the corpus parse neither ran nor failed", () => {
    expect(parseLines({ corpusParse: null, failures: [] })).toEqual([]);
    expect(parseLines({ failures: [] })).toEqual([]);
  });

  it("puts gray-matter beside the previous frontmatter path per corpus, in CPU and wall-clock time, as ratios", () => {
    const lines = parseLines({
      corpusParse: {
        corpora: [timing("sample corpus (corpus/)", 66, 4, 5), timing("generated (10,000 files)", 10_000, 400, 380)],
      },
      failures: [],
    });
    const cpu = tableAfter(lines, "CPU time (process.cpuUsage, user + system):");
    const wall = tableAfter(lines, "wall-clock time:");

    expect(lines[0]).toContain("medians of 15 rounds");
    expect(cpu).toMatch(
      /^sample corpus \(corpus\/\) +66 +2\.00 +2\.50 +1\.04x \(1\.01x to 1\.09x\) +4\.00 +5\.00 +1\.02x \(0\.97x to 1\.06x\) +20\.0 +0$/m,
    );
    expect(cpu).toMatch(
      /^generated \(10,000 files\) +10,000 +200 +190 +1\.04x \(1\.01x to 1\.09x\) +400 +380 +1\.02x/m,
    );
    expect(wall).toMatch(
      /^sample corpus \(corpus\/\) +66 +4\.00 +5\.00 +1\.25x \(0\.90x to 1\.50x\) +8\.00 +10\.0 +1\.25x \(0\.80x to 1\.40x\) +40\.0 +0$/m,
    );
    expect(wall).toMatch(
      /^generated \(10,000 files\) +10,000 +400 +380 +0\.95x \(0\.90x to 1\.50x\) +800 +760 +0\.95x \(0\.80x to 1\.40x\) +4000 +0$/m,
    );
    expect(lines).toContain(
      "  sample corpus (corpus/): 31 passes per block (at least 2,000 files), the times per pass",
    );
  });

  it("shows an older result without CPU time as dashes in the CPU table", () => {
    const {
      frontmatterCpuMs: _a,
      fileParseCpuMs: _b,
      frontmatterCpuRatio: _c,
      fileParseCpuRatio: _d,
      loadCorpusCpuMs: _e,
      passes: _f,
      ...older
    } = timing("generated (10,000 files)", 10_000, 400, 380);
    const lines = parseLines({ corpusParse: { corpora: [older] }, failures: [] });

    expect(tableAfter(lines, "CPU time (process.cpuUsage, user + system):")).toMatch(
      /^generated \(10,000 files\) +10,000 +- +- +- +- +- +- +- +0$/m,
    );
    expect(tableAfter(lines, "wall-clock time:")).toMatch(/^generated \(10,000 files\) +10,000 +400 +380 +0\.95x/m);
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
