import type { CorpusParseTiming, PathMedians, RoundRatios } from "../tasks/parse-task.js";
import type { BenchReport } from "./report-model.js";
import { formatMs, formatTable } from "./text-table.js";

/** Two decimals: the differences at stake are a few percent. */
const formatRatio2 = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}x` : "n/a");

const ratio = (rounds: RoundRatios | undefined) =>
  rounds === undefined
    ? "-"
    : `${formatRatio2(rounds.median)} (${formatRatio2(rounds.min)} to ${formatRatio2(rounds.max)})`;

const ms = (value: number | undefined) => (value === undefined ? "-" : formatMs(value));

interface Measure {
  frontmatter: PathMedians | undefined;
  frontmatterRatio: RoundRatios | undefined;
  fileParse: PathMedians | undefined;
  fileParseRatio: RoundRatios | undefined;
  loadCorpus: number | undefined;
}

const cpu = (timing: CorpusParseTiming): Measure => ({
  frontmatter: timing.frontmatterCpuMs,
  frontmatterRatio: timing.frontmatterCpuRatio,
  fileParse: timing.fileParseCpuMs,
  fileParseRatio: timing.fileParseCpuRatio,
  loadCorpus: timing.loadCorpusCpuMs,
});

const wall = (timing: CorpusParseTiming): Measure => ({
  frontmatter: timing.frontmatterMs,
  frontmatterRatio: timing.frontmatterRatio,
  fileParse: timing.fileParseMs,
  fileParseRatio: timing.fileParseRatio,
  loadCorpus: timing.loadCorpusMs,
});

const HEADER = [
  "corpus",
  "files",
  "frontmatter previous",
  "gray-matter",
  "ratio",
  "file parse previous",
  "gray-matter",
  "ratio",
  "loadCorpus",
  "files differing",
];

function row(timing: CorpusParseTiming, measure: Measure): string[] {
  return [
    timing.corpus,
    timing.files.toLocaleString("en-US"),
    ms(measure.frontmatter?.previous),
    ms(measure.frontmatter?.grayMatter),
    ratio(measure.frontmatterRatio),
    ms(measure.fileParse?.previous),
    ms(measure.fileParse?.grayMatter),
    ratio(measure.fileParseRatio),
    ms(measure.loadCorpus),
    String(timing.differingFiles),
  ];
}

/**
 * The corpus-parse rows: per corpus, the previous frontmatter path and gray-matter's side by side
 * with their ratio, in CPU time and in wall-clock time. Pure.
 */
export function parseLines(report: Pick<BenchReport, "corpusParse" | "failures">): string[] {
  const corpora = report.corpusParse?.corpora ?? [];
  const failure = report.failures.find((f) => f.step === "parse");
  if (corpora.length === 0 && !failure) return [];
  const rounds = corpora[0]?.rounds;
  const lines = [
    `corpus parse: the previous frontmatter path against gray-matter (ms: medians of ${rounds ?? "?"} rounds in alternating order, the heap collected before each block):`,
    "CPU time (process.cpuUsage, user + system):",
    formatTable(
      HEADER,
      corpora.map((timing) => row(timing, cpu(timing))),
    ),
    "wall-clock time:",
    formatTable(
      HEADER,
      corpora.map((timing) => row(timing, wall(timing))),
    ),
    "  ratio: gray-matter / previous per round (the two timed back to back), the median and the range over the rounds",
    "  frontmatter: the frontmatter step alone over the decoded texts; file parse: decode + frontmatter + fields + chunks; loadCorpus: walk + read + hash + parse (gray-matter)",
    "  CPU time leaves out the time spent waiting for a core, most of the wall-clock noise on a busy machine",
    ...corpora
      .filter((timing) => (timing.passes ?? 1) > 1)
      .map(
        (timing) => `  ${timing.corpus}: ${timing.passes} passes per block (at least 2,000 files), the times per pass`,
      ),
  ];
  if (failure) lines.push(`  FAILED: ${failure.message}`);
  return lines;
}
