import { spawn } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { renderHtmlReport } from "../../src/eval/report/html-report.js";
import { formatMetricsTable } from "../../src/eval/report/text-table.js";
import { baselineFrom, checkBaseline, describeViolation, type Baseline } from "../../src/eval/promptfoo/baseline.js";
import { describeRelevanceGoals, summarizePromptfooResults, type PromptfooOutput } from "../../src/eval/promptfoo/summarize-results.js";
import { describeCalibration, type CorpusCalibration } from "../../src/calibration/calibration.js";

/** promptfoo's exit code when assertions failed (the run itself worked). */
const PROMPTFOO_ASSERTIONS_FAILED = 100;

function runPromptfoo(config: string, resultsFile: string): Promise<number> {
  const env = {
    ...process.env,
    PROMPTFOO_CONFIG_DIR: resolve(".promptfoo"),
    PROMPTFOO_DISABLE_TELEMETRY: "1",
    PROMPTFOO_DISABLE_UPDATE: "1",
    PROMPTFOO_DISABLE_RUNTIME_WARNINGS: "1",
    PROMPTFOO_DISABLE_SHARING: "1",
  };
  const bin = resolve("node_modules", ".bin", "promptfoo");
  const child = spawn(bin, ["eval", "-c", config, "--no-cache", "--no-table", "--no-progress-bar", "-o", resultsFile], { env, stdio: ["ignore", "inherit", "inherit"] });
  return new Promise((done, fail) => {
    child.on("error", fail);
    child.on("close", (code) => done(code ?? 1));
  });
}

/**
 * `npm run eval`: runs the promptfoo suite offline, then gates it. Fails (exit 1) when promptfoo
 * could not run, a case errored, a contract check failed, the corpus differs from the baseline's,
 * or a gated metric mean fell below eval/baseline.json. Writes summary.json and report.html.
 */
async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      config: { type: "string", default: "promptfooconfig.yaml" },
      baseline: { type: "string", default: "eval/baseline.json" },
      out: { type: "string", default: "eval/results/promptfoo" },
      "update-baseline": { type: "boolean", default: false },
    },
  });
  await mkdir(values.out, { recursive: true });
  const resultsFile = join(values.out, "results.json");
  const started = performance.now();
  const code = await runPromptfoo(values.config, resultsFile);
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0 && code !== PROMPTFOO_ASSERTIONS_FAILED) {
    console.error(`eval: promptfoo exited with code ${code}; see its output above.`);
    return 1;
  }
  const output = JSON.parse(await readFile(resultsFile, "utf8")) as PromptfooOutput;
  const summary = summarizePromptfooResults(output, { promptfooConfig: values.config, baseline: values.baseline, seconds: Number(seconds.toFixed(1)) });
  await writeFile(join(values.out, "summary.json"), `${JSON.stringify(summary.report, null, 2)}\n`);
  await writeFile(join(values.out, "report.html"), renderHtmlReport(summary.report));
  console.log(`\n${formatMetricsTable(summary.report)}\n`);
  console.log(`${summary.cases} cases in ${seconds.toFixed(1)} s; corpus ${summary.report.corpusFingerprint}; report: ${join(values.out, "report.html")}`);
  const calibration = summary.report.config.calibration as CorpusCalibration | null;
  if (calibration) console.log(describeCalibration(calibration));
  for (const line of describeRelevanceGoals(summary.report)) console.log(line);

  if (values["update-baseline"]) {
    await writeFile(values.baseline, `${JSON.stringify(baselineFrom(summary.report), null, 2)}\n`);
    console.log(`eval: wrote the current means to ${values.baseline}.`);
  }
  const baseline = JSON.parse(await readFile(values.baseline, "utf8")) as Baseline;
  const problems = [
    ...summary.errors.map((line) => `error: ${line}`),
    ...summary.contractFailures.map((line) => `contract: ${line}`),
    ...(baseline.corpusFingerprint !== summary.report.corpusFingerprint
      ? [`corpus fingerprint ${summary.report.corpusFingerprint} differs from the baseline's ${baseline.corpusFingerprint}: re-measure with \`npm run eval -- --update-baseline\``]
      : []),
    ...checkBaseline(summary.report, baseline).map((violation) => `baseline: ${describeViolation(violation)}`),
  ];
  if (problems.length > 0) {
    console.error(`eval: FAILED (${problems.length} problem${problems.length === 1 ? "" : "s"})\n${problems.map((p) => `  ${p}`).join("\n")}`);
    return 1;
  }
  console.log("eval: passed (every contract check held; every gated metric is at or above its baseline).");
  return 0;
}

process.exitCode = await main();
