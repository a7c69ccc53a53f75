import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as evalApi from "../../src/eval/index.js";
import { REPO_ROOT } from "../integration/helpers/integration-fixtures.js";

/**
 * The `lookup-knowledge/eval` entry's runtime names: each is a promise to users, so adding or
 * removing one is a deliberate change made here, in the module doc of `src/eval/index.ts` and in
 * `api/lookup-knowledge-eval.api.md` (`npm run api:report`).
 */
const EVAL_RUNTIME_EXPORTS = [
  "LookupKnowledgeProvider",
  "assertions",
  "baselineGateHook",
  "beirReport",
  "checkBaseline",
  "evaluateRun",
  "formatTrecRun",
  "goldenTests",
  "hitAtK",
  "loadBeirDataset",
  "mrrAtK",
  "ndcgAtK",
  "pairedRandomizationTest",
  "pairedTTest",
  "parseTrecRun",
  "precisionAtK",
  "readBaseline",
  "readGoldenSet",
  "recallAtK",
  "renderHtmlReport",
  "runBeirEval",
  "runGoldenEval",
  "writeBeirOutputs",
];

const REPORT = join(REPO_ROOT, "api", "lookup-knowledge-eval.api.md");

describe("the lookup-knowledge/eval API", () => {
  it("exports exactly the listed runtime names, at most 25", () => {
    expect(Object.keys(evalApi).sort()).toEqual([...EVAL_RUNTIME_EXPORTS].sort());
    expect(EVAL_RUNTIME_EXPORTS.length).toBeLessThanOrEqual(25);
  });

  it("has every runtime name in the committed eval API report", async () => {
    const report = await readFile(REPORT, "utf8");
    const missing = EVAL_RUNTIME_EXPORTS.filter(
      (name) => !new RegExp(`export (?:declare )?(?:function|class|const|abstract class) ${name}\\b`).test(report),
    );
    expect(missing).toEqual([]);
  });

  it("documents every member of the committed eval API report", async () => {
    const report = await readFile(REPORT, "utf8");
    const undocumented = report
      .split("\n")
      .filter((line) => line.includes("(undocumented)") || line.includes("ae-undocumented"));
    expect(undocumented).toEqual([]);
  });
});
