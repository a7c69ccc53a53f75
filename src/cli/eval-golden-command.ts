import { basename, dirname, extname, join, resolve } from "node:path";
import { describeCalibration, type CorpusCalibration } from "../calibration/calibration.js";
import { runGoldenEval } from "../eval/promptfoo/run-golden-eval.js";
import { describeRelevanceGoals } from "../eval/promptfoo/summarize-results.js";
import { formatMetricsTable } from "../eval/report/text-table.js";
import { parseVariants, VARIANT_NAMES } from "../eval/variants.js";
import type { CliIO, ParsedCommand } from "./command-spec.js";
import { DEFAULT_CORPUS_DIR } from "./defaults.js";
import { checkOutDir } from "./out-dir.js";
import { stderrLine } from "./terminal-text.js";

function paths(values: ParsedCommand["values"]) {
  const golden = String(values.golden);
  const name = basename(golden, extname(golden));
  return {
    golden,
    corpus: typeof values.corpus === "string" ? values.corpus : DEFAULT_CORPUS_DIR,
    baseline: typeof values.baseline === "string" ? values.baseline : join(dirname(golden), `${name}.baseline.json`),
    out: typeof values.out === "string" ? values.out : join("eval", "results", `promptfoo-${name}`),
  };
}

/**
 * `lookup-knowledge eval --golden FILE --corpus DIR`: validates the golden set against the corpus,
 * writes a promptfoo config into `--out` (re-runnable with `npx promptfoo eval -c <out>/promptfooconfig.yaml`),
 * runs promptfoo, and passes exactly when promptfoo exits 0 (contract checks held and the
 * baseline-gate hook found every gated mean at or above the baseline).
 */
export async function runGoldenEvalCommand({ values }: ParsedCommand, io: CliIO): Promise<number> {
  const { golden, corpus, baseline, out } = paths(values);
  const variants = parseVariants(String(values.variants ?? VARIANT_NAMES.join(",")));
  checkOutDir("eval", out);
  const {
    passed,
    promptfooExitCode: code,
    problems,
    files,
    outcome,
    seconds,
  } = await runGoldenEval({
    golden,
    corpus,
    baseline,
    out,
    variants,
    updateBaseline: values["update-baseline"] === true,
    onOutput: io.err,
    onStart: (plan) =>
      io.err(
        `${stderrLine(`eval: ${plan.questions} questions x ${variants.length} variants on ${corpus} (${plan.chunks} chunks); promptfoo config ${plan.files.config}`)}\n`,
      ),
  });
  const { report, cases } = outcome.summary;
  if (values.json === true) {
    const variantsOut = report.variants.map(({ name, label, mean }) => ({ name, label, ...mean }));
    io.out(
      `${JSON.stringify({ passed, promptfooExitCode: code, problems, cases, corpusFingerprint: report.corpusFingerprint, baseline, files, variants: variantsOut }, null, 2)}\n`,
    );
  } else {
    io.out(`${formatMetricsTable(report)}\n\n`);
    io.out(
      passed
        ? `eval: passed (every contract check held; every gated metric is at or above ${baseline}).\n`
        : `eval: FAILED (${problems.length} problem${problems.length === 1 ? "" : "s"})\n${problems.map((p) => `  ${p}\n`).join("")}`,
    );
  }
  io.err(
    `${stderrLine(`${cases} results in ${seconds.toFixed(1)} s; corpus ${report.corpusFingerprint}; report ${files.report}; results.json ${outcome.resultsBytes.trimmed} bytes (promptfoo wrote ${outcome.resultsBytes.written})`)}\n`,
  );
  const calibration = report.config.calibration as CorpusCalibration | null;
  if (calibration) io.err(`${describeCalibration(calibration)}\n`);
  for (const line of describeRelevanceGoals(report)) io.err(`${line}\n`);
  if (outcome.gate?.wroteBaseline) io.err(`${stderrLine(`eval: wrote the measured means to ${resolve(baseline)}.`)}\n`);
  return passed ? 0 : 1;
}
