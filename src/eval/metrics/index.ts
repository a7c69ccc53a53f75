export type { MetricValues, Qrels, RankedDoc, Run } from "./types.js";
export { ndcgAtK } from "./ndcg.js";
export { recallAtK } from "./recall.js";
export { mrrAtK } from "./mrr.js";
export { hitAtK } from "./hit.js";
export { precisionAtK } from "./precision.js";
export { compareRankedDocs, rankRun, sortRun } from "./rank-run.js";
export { evaluateRun } from "./evaluate-run.js";
export type { EvaluateRunOptions, RunEvaluation } from "./evaluate-run.js";
