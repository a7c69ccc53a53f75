export type { BeirDataset, BeirDocument, BeirLayout, BeirQuery } from "./types.js";
export { loadBeirDataset } from "./load-beir-dataset.js";
export { resolveBeirLayout } from "./resolve-layout.js";
export { loadBeirCorpus } from "./load-corpus.js";
export { loadBeirQueries } from "./load-queries.js";
export { loadBeirQrels } from "./load-qrels.js";
export { formatTrecRun } from "./format-trec-run.js";
export { parseTrecRun } from "./parse-trec-run.js";
