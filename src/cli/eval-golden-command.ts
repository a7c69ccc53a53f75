import { rm, writeFile } from "node:fs/promises";
import { basename, dirname, extname, join, resolve } from "node:path";
import { describeCalibration, type CorpusCalibration } from "../calibration/calibration.js";
import { loadCorpus } from "../corpus/load-corpus.js";
import { readBaseline } from "../eval/promptfoo/baseline.js";
import { goldenEvalConfig, promptfooConfigText } from "../eval/promptfoo/golden-eval-config.js";
import { goldenEvalFiles, writeGoldenEvalOutputs } from "../eval/promptfoo/golden-eval-outputs.js";
import { checkGoldSources, readGoldenSet } from "../eval/promptfoo/golden-set.js";
import { runPromptfooEval } from "../eval/promptfoo/run-promptfoo.js";
import { describeRelevanceGoals } from "../eval/promptfoo/summarize-results.js";
import { formatMetricsTable } from "../eval/report/text-table.js";
import { parseVariants, VARIANT_NAMES } from "../eval/variants.js";
import { LookupKnowledgeError } from "../errors.js";
import type { CliIO, ParsedCommand } from "./command-spec.js";
import { DEFAULT_CORPUS_DIR } from "./defaults.js";
import { checkOutDir } from "./out-dir.js";
import { makeFolders } from "../make-folders.js";
import { stderrLine } from "./terminal-text.js";

/** promptfoo's exit code when a case failed (ours: the gate failed too). */
const PROMPTFOO_FAILED = 100;

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
  const update = values["update-baseline"] === true;
  checkOutDir("eval", out);
  const entries = await readGoldenSet(golden);
  const chunks = (await loadCorpus(corpus)).chunks;
  checkGoldSources(entries, new Set(chunks.map((chunk) => chunk.source)), golden, corpus);
  if (!update && (await readBaseline(baseline)) === null) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `baseline ${baseline} does not exist; run once with --update-baseline to write the measured means to it (or pass --baseline FILE).`,
    );
  }
  const files = goldenEvalFiles(out);
  await makeFolders(out);
  await rm(files.gate, { force: true });
  const writeConfig = (updateBaseline: boolean) =>
    writeFile(
      files.config,
      promptfooConfigText(goldenEvalConfig({ golden, corpus, baseline, out, variants, updateBaseline }), files.config),
    );
  await writeConfig(update);
  io.err(
    `${stderrLine(`eval: ${entries.length} questions x ${variants.length} variants on ${corpus} (${chunks.length} chunks); promptfoo config ${files.config}`)}\n`,
  );
  const started = performance.now();
  const code = await runPromptfooEval({ config: files.config, output: files.results, onOutput: io.err });
  const seconds = (performance.now() - started) / 1000;
  if (update) await writeConfig(false);
  if (code !== 0 && code !== PROMPTFOO_FAILED)
    throw new LookupKnowledgeError("INVALID_OPTION", `promptfoo exited with code ${code}; see its output above.`);
  const outcome = await writeGoldenEvalOutputs(out, {
    golden,
    corpus,
    baseline,
    promptfooConfig: files.config,
    seconds: Number(seconds.toFixed(1)),
  });
  const { report, cases } = outcome.summary;
  const problems = outcome.gate?.problems ?? [
    "the baseline gate did not run (no gate.json); check promptfoo's output above",
  ];
  if (code !== 0 && problems.length === 0)
    problems.push(`promptfoo reported failed cases (exit code ${code}); see ${files.results}`);
  const passed = code === 0 && problems.length === 0;
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
