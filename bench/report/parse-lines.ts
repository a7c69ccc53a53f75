import type { CorpusParseTiming, RoundRatios } from "../tasks/parse-task.js";
import type { BenchReport } from "./report-model.js";
import { formatMs, formatRatio, formatTable } from "./text-table.js";

const ratio = (rounds: RoundRatios | undefined) =>
  rounds === undefined
    ? "-"
    : `${formatRatio(rounds.median)} (${formatRatio(rounds.min)} to ${formatRatio(rounds.max)})`;

function row(timing: CorpusParseTiming): string[] {
  return [
    timing.corpus,
    timing.files.toLocaleString("en-US"),
    formatMs(timing.frontmatterMs?.previous),
    formatMs(timing.frontmatterMs?.grayMatter),
    ratio(timing.frontmatterRatio),
    formatMs(timing.fileParseMs?.previous),
    formatMs(timing.fileParseMs?.grayMatter),
    ratio(timing.fileParseRatio),
    formatMs(timing.loadCorpusMs),
    String(timing.differingFiles),
  ];
}

/** The corpus-parse rows: per corpus, the previous frontmatter path and gray-matter's side by side, with their ratio. Pure. */
export function parseLines(report: Pick<BenchReport, "corpusParse" | "failures">): string[] {
  const corpora = report.corpusParse?.corpora ?? [];
  const failure = report.failures.find((f) => f.step === "parse");
  if (corpora.length === 0 && !failure) return [];
  const rounds = corpora[0]?.rounds;
  const lines = [
    `corpus parse: the previous frontmatter path against gray-matter (ms: medians of ${rounds ?? "?"} rounds in alternating order):`,
    formatTable(
      [
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
      ],
      corpora.map(row),
    ),
    "  ratio: gray-matter / previous per round (the two timed back to back), the median and the range over the rounds",
    "  frontmatter: the frontmatter step alone over the decoded texts; file parse: decode + frontmatter + fields + chunks; loadCorpus: walk + read + hash + parse (gray-matter)",
  ];
  if (failure) lines.push(`  FAILED: ${failure.message}`);
  return lines;
}
