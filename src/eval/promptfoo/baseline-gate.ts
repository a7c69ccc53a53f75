import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { errorMessage } from "../../errors.js";
import { writeFileAtomically } from "../../knowledge-base/durable-fs.js";
import { baselineFrom, gateProblems, readBaseline } from "./baseline.js";
import { summarizePromptfooResults, type PromptfooOutput } from "./summarize-results.js";
import { makeFolders } from "../../make-folders.js";

/** Where a promptfoo config keeps the gate's settings: `metadata.lookupKnowledgeGate`. */
export const GATE_METADATA_KEY = "lookupKnowledgeGate";

/** The gate's settings in the promptfoo config (`metadata.lookupKnowledgeGate`). */
export interface BaselineGateConfig {
  /** The baseline file: per-variant floors of the gated metric means. */
  baseline: string;
  /** Write the measured means to `baseline` first (then the metric gate holds trivially). @default false */
  updateBaseline?: boolean;
  /** A folder for `gate.json` (the verdict, read by `lookup-knowledge eval`). @default undefined (not written) */
  out?: string;
}

/** `gate.json`: the verdict of the gate. */
export interface GateVerdict {
  /** True when there is no problem. */
  passed: boolean;
  /** Why the run fails the gate, one line each. */
  problems: string[];
  /** The baseline file the run was gated against (`""` when the config names none). */
  baseline: string;
  /** True when the run wrote its means to the baseline (`updateBaseline`). */
  wroteBaseline: boolean;
}

/** promptfoo's exit code for a failed eval (`PROMPTFOO_FAILED_TEST_EXIT_CODE`'s default). */
export const GATE_FAILED_EXIT_CODE = 100;

/** The part of promptfoo's afterAll context the gate reads. */
export interface AfterAllContext {
  /** The stored results of every case. */
  results: PromptfooOutput["results"]["results"];
  /** The config that ran; the gate reads `metadata.lookupKnowledgeGate` ({@link BaselineGateConfig}). */
  config?: { metadata?: Record<string, unknown> };
  /** The suite that ran: tests x providers x prompts results are expected. */
  suite?: { tests?: unknown[]; providers?: unknown[]; prompts?: unknown[] };
}

/** One line when promptfoo stored fewer results than the suite ran (its database dropped some), else none. */
export function missingResults(context: AfterAllContext): string[] {
  const { tests, providers, prompts } = context.suite ?? {};
  if (!tests || !providers) return [];
  const expected = tests.length * providers.length * Math.max(prompts?.length ?? 1, 1);
  if (context.results.length >= expected) return [];
  return [`promptfoo stored only ${context.results.length} of ${expected} results (another run using the same PROMPTFOO_CONFIG_DIR?); re-run alone or give each run its own PROMPTFOO_CONFIG_DIR`];
}

/** The verdict of one run against its baseline (reads and maybe writes the baseline file). */
export async function judgeRun(context: AfterAllContext, gate: BaselineGateConfig): Promise<GateVerdict> {
  const summary = summarizePromptfooResults({ results: { results: context.results } });
  const missing = missingResults(context);
  let wroteBaseline = false;
  // An incomplete or failing run (errored calls, broken contract checks) never becomes the baseline.
  const failed = [...missing, ...summary.errors, ...summary.contractFailures];
  if (gate.updateBaseline && failed.length === 0) {
    await makeFolders(dirname(gate.baseline));
    await writeFileAtomically(gate.baseline, `${JSON.stringify(baselineFrom(summary.report), null, 2)}\n`);
    wroteBaseline = true;
  }
  const baseline = await readBaseline(gate.baseline);
  const problems = [...missing];
  if (gate.updateBaseline && failed.length > 0) problems.push(`--update-baseline: did not write ${gate.baseline}, because the run failed (see the problems listed); fix them and re-run`);
  if (baseline) problems.push(...gateProblems(summary, baseline, gate.baseline));
  else {
    problems.push(...summary.errors.map((line) => `error: ${line}`), ...summary.contractFailures.map((line) => `contract: ${line}`));
    if (!gate.updateBaseline) problems.push(`baseline ${gate.baseline} does not exist: run \`lookup-knowledge eval ... --update-baseline\` once to write the current means to it`);
  }
  return { passed: problems.length === 0, problems, baseline: gate.baseline, wroteBaseline };
}

/**
 * promptfoo `afterAll` extension hook (`extensions: [file://…/baseline-gate.ts:afterAll]`): gates the
 * per-variant means against the baseline named in `metadata.lookupKnowledgeGate`, so that plain
 * `promptfoo eval` and `lookup-knowledge eval` reach the same verdict. A failed gate sets promptfoo's
 * exit code to 100, as a failed case does. This is promptfoo glue: it reports on stderr, the only
 * channel a hook has.
 */
export async function afterAll(context: AfterAllContext): Promise<void> {
  const gate = context.config?.metadata?.[GATE_METADATA_KEY] as BaselineGateConfig | undefined;
  let verdict: GateVerdict;
  if (!gate || typeof gate.baseline !== "string") {
    verdict = { passed: false, problems: [`the promptfoo config has no metadata.${GATE_METADATA_KEY}.baseline; regenerate it with lookup-knowledge eval`], baseline: "", wroteBaseline: false };
  } else {
    try {
      verdict = await judgeRun(context, gate);
    } catch (error) {
      verdict = { passed: false, problems: [`gate: ${errorMessage(error)}`], baseline: gate.baseline, wroteBaseline: false };
    }
  }
  if (gate?.out) {
    await makeFolders(gate.out);
    await writeFile(join(gate.out, "gate.json"), `${JSON.stringify(verdict, null, 2)}\n`);
  }
  if (verdict.wroteBaseline) process.stderr.write(`lookup-knowledge gate: wrote the measured means to ${verdict.baseline}\n`);
  if (verdict.passed) {
    process.stderr.write(`lookup-knowledge gate: passed (contract checks held; gated means at or above ${verdict.baseline})\n`);
    return;
  }
  process.stderr.write(`lookup-knowledge gate: FAILED (${verdict.problems.length} problem${verdict.problems.length === 1 ? "" : "s"})\n${verdict.problems.map((p) => `  ${p}\n`).join("")}`);
  process.exitCode = GATE_FAILED_EXIT_CODE;
}
