export type { BeirDataset, BeirDocument, BeirLayout, BeirQuery } from "./types.js";
export { loadBeirDataset, type LoadBeirDatasetOptions } from "./load-beir-dataset.js";
export { resolveBeirLayout } from "./resolve-layout.js";
export { loadBeirCorpus } from "./load-corpus.js";
export { loadBeirQueries } from "./load-queries.js";
export { loadBeirQrels, readBeirQrels, type ReadQrels, type ReadQrelsOptions } from "./load-qrels.js";
export {
  DEFAULT_MAX_UNKNOWN_JUDGEMENTS,
  DEFAULT_MAX_UNKNOWN_SHARE,
  type UnknownJudgementLimits,
  type UnknownJudgements,
} from "./unknown-judgements.js";
export { formatTrecRun } from "./format-trec-run.js";
export { parseTrecRun } from "./parse-trec-run.js";
