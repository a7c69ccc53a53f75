import { rm, writeFile } from "node:fs/promises";
import { loadCorpus } from "../../corpus/load-corpus.js";
import { LookupKnowledgeError } from "../../errors.js";
import { makeFolders } from "../../make-folders.js";
import { VARIANT_NAMES, type VariantName } from "../variants.js";
import { readBaseline } from "./baseline.js";
import { goldenEvalConfig, promptfooConfigText } from "./golden-eval-config.js";
import { goldenEvalFiles, writeGoldenEvalOutputs, type GoldenEvalFiles, type GoldenEvalOutcome } from "./golden-eval-outputs.js";
import { checkGoldSources, readGoldenSet } from "./golden-set.js";
import { runPromptfooEval } from "./run-promptfoo.js";

/** promptfoo's exit code when a case failed (the baseline gate uses it too). */
const PROMPTFOO_FAILED = 100;

/** Options of {@link runGoldenEval}. Relative paths are resolved against the current folder. */
export interface RunGoldenEvalOptions {
  /** The golden set (YAML, see {@link GoldenEntry}). */
  golden: string;
  /** The Markdown corpus the tool indexes; every gold source must be one of its chunks. */
  corpus: string;
  /** The baseline file the gate compares the per-variant means with; it must exist unless `updateBaseline` is set. */
  baseline: string;
  /** Where the promptfoo config, results.json, summary.json, report.html, gate.json and the traces go. */
  out: string;
  /** The variants, one promptfoo provider each. @default ["L0", "L1", "L0+L1"] */
  variants?: readonly VariantName[];
  /** Write the measured means to `baseline` before gating (never from a failing run). @default false */
  updateBaseline?: boolean;
  /** Receives promptfoo's own output, stdout and stderr alike. @default undefined (discarded) */
  onOutput?: (text: string) => void;
  /** Called once the golden set and the corpus are checked, before promptfoo starts. @default undefined */
  onStart?: (plan: GoldenEvalPlan) => void;
  /** The environment promptfoo inherits (offline defaults are added for unset variables). @default process.env */
  env?: NodeJS.ProcessEnv;
}

/** What a golden-set eval is about to run, as {@link RunGoldenEvalOptions.onStart} receives it. */
export interface GoldenEvalPlan {
  /** Questions in the golden set. */
  questions: number;
  /** Chunks of the corpus. */
  chunks: number;
  /** The variants that run. */
  variants: readonly VariantName[];
  /** The files the run writes into `out`. */
  files: GoldenEvalFiles;
}

/** The result of {@link runGoldenEval}. */
export interface GoldenEvalRun {
  /** True exactly when promptfoo exited 0 and the gate found no problem. */
  passed: boolean;
  /** promptfoo's exit code: 0, or 100 when a case or the gate failed. */
  promptfooExitCode: number;
  /** Why the run failed, one line each; empty when it passed. */
  problems: string[];
  /** The files the run wrote. */
  files: GoldenEvalFiles;
  /** The summary, the gate's verdict and the size of results.json. */
  outcome: GoldenEvalOutcome;
  /** Wall-clock seconds promptfoo ran. */
  seconds: number;
}

/**
 * Runs the golden-set suite on any corpus, as `lookup-knowledge eval --golden` does: checks the golden
 * set against the corpus, writes a promptfoo config into `out`, runs promptfoo on it in a child
 * process, then trims results.json and writes summary.json and report.html. A failed case or gate is
 * a result (`passed: false` with its problems), not a throw.
 * @throws LookupKnowledgeError `GOLDEN_SET_INVALID` for a bad golden set or an unknown gold source,
 * `INVALID_OPTION` when the baseline is missing (without `updateBaseline`), promptfoo is not installed
 * or exits with another code.
 * @example
 * ```ts
 * const run = await runGoldenEval({ golden: "golden.yaml", corpus: "docs", baseline: "golden.baseline.json", out: "eval-out" });
 * if (!run.passed) throw new Error(run.problems.join("\n"));
 * ```
 */
export async function runGoldenEval(options: RunGoldenEvalOptions): Promise<GoldenEvalRun> {
  const { golden, corpus, baseline, out } = options;
  const variants = options.variants ?? VARIANT_NAMES;
  const update = options.updateBaseline === true;
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
    writeFile(files.config, promptfooConfigText(goldenEvalConfig({ golden, corpus, baseline, out, variants, updateBaseline }), files.config));
  await writeConfig(update);
  options.onStart?.({ questions: entries.length, chunks: chunks.length, variants, files });
  const started = performance.now();
  const code = await runPromptfooEval({ config: files.config, output: files.results, onOutput: options.onOutput ?? (() => undefined), ...(options.env ? { env: options.env } : {}) });
  const seconds = Number(((performance.now() - started) / 1000).toFixed(1));
  // The config left in `out` re-runs the suite as a check, not as another baseline update.
  if (update) await writeConfig(false);
  if (code !== 0 && code !== PROMPTFOO_FAILED) throw new LookupKnowledgeError("INVALID_OPTION", `promptfoo exited with code ${code}; see its output above.`);
  const outcome = await writeGoldenEvalOutputs(out, { golden, corpus, baseline, promptfooConfig: files.config, seconds });
  const problems = outcome.gate?.problems ?? ["the baseline gate did not run (no gate.json); check promptfoo's output above"];
  if (code !== 0 && problems.length === 0) problems.push(`promptfoo reported failed cases (exit code ${code}); see ${files.results}`);
  return { passed: code === 0 && problems.length === 0, promptfooExitCode: code, problems, files, outcome, seconds };
}
