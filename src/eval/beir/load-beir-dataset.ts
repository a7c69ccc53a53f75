import { basename } from "node:path";
import { LookupKnowledgeError } from "../../errors.js";
import { loadBeirCorpus } from "./load-corpus.js";
import { readBeirQrels } from "./load-qrels.js";
import { loadBeirQueries } from "./load-queries.js";
import { resolveBeirLayout } from "./resolve-layout.js";
import type { BeirDataset } from "./types.js";
import type { UnknownJudgementLimits } from "./unknown-judgements.js";

/** Options of {@link loadBeirDataset}: the limits on judgements of documents or queries the dataset lacks. */
export type LoadBeirDatasetOptions = UnknownJudgementLimits;

/** The error for a dataset with nothing to evaluate. */
function emptyDataset(file: string, what: string): LookupKnowledgeError {
  return new LookupKnowledgeError("DATASET_EMPTY", `${file}: ${what}; there is nothing to evaluate.`);
}

/**
 * Loads a BEIR-format dataset: `corpus.jsonl`, `queries.jsonl` and a tab-separated qrels file
 * with a `query-id corpus-id score` header (see `resolveBeirLayout` for where each is looked for,
 * including `split` folders such as `dir/train/`). Every file is streamed line by line.
 *
 * As BEIR's `GenericDataLoader` does, only the queries judged in the chosen qrels are returned
 * (BEIR's `queries.jsonl` holds the queries of every split). Judgements naming a query that
 * `queries.jsonl` lacks are left out, and those naming a document the corpus lacks kept (it is
 * simply unretrievable and lowers recall); both are counted in `unknownJudgements`, and past the
 * limits of `options` (by default more than 1,000, or more than 10% of the judgements) the
 * qrels are refused as belonging to another dataset.
 *
 * @param dir The dataset folder.
 * @param split A split name such as `"train"`; omit for the default (test) judgements.
 * @throws LookupKnowledgeError (`DATASET_INVALID`) naming the file, the line and what is wrong,
 * or, for a missing file, which file was expected and the BEIR layout; (`DATASET_EMPTY`) when the
 * corpus has no document, the queries file no query, or the qrels judge none of its queries.
 * @example
 * const { corpus, queries, qrels } = await loadBeirDataset("datasets/scifact");
 */
export async function loadBeirDataset(
  dir: string,
  split?: string,
  options: LoadBeirDatasetOptions = {},
): Promise<BeirDataset> {
  const layout = await resolveBeirLayout(dir, split);
  const corpus = await loadBeirCorpus(layout.corpusFile);
  if (corpus.length === 0) throw emptyDataset(layout.corpusFile, "no documents");
  const allQueries = await loadBeirQueries(layout.queriesFile);
  if (allQueries.length === 0) throw emptyDataset(layout.queriesFile, "no queries");
  const { qrels, unknown } = await readBeirQrels(layout.qrelsFile, {
    ...options,
    documentIds: new Set(corpus.map((document) => document.id)),
    queryIds: new Set(allQueries.map((query) => query.id)),
    names: { corpus: basename(layout.corpusFile), queries: basename(layout.queriesFile) },
  });
  const queries = allQueries.filter((query) => qrels.has(query.id));
  if (queries.length === 0) {
    const what =
      unknown.judgements === 0 ? "no judgements" : `no judgement of a query in ${basename(layout.queriesFile)}`;
    throw emptyDataset(layout.qrelsFile, `${what} in the ${split ?? "test"} split`);
  }
  return { corpus, queries, qrels, unknownJudgements: unknown };
}
