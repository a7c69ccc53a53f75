import { datasetError } from "./dataset-error.js";
import { loadBeirCorpus } from "./load-corpus.js";
import { loadBeirQrels } from "./load-qrels.js";
import { loadBeirQueries } from "./load-queries.js";
import { resolveBeirLayout } from "./resolve-layout.js";
import type { BeirDataset } from "./types.js";

/**
 * Loads a BEIR-format dataset: `corpus.jsonl`, `queries.jsonl` and a tab-separated qrels file
 * with a `query-id corpus-id score` header (see `resolveBeirLayout` for where each is looked for,
 * including `split` folders such as `dir/train/`). Every file is streamed line by line.
 *
 * As BEIR's `GenericDataLoader` does, only the queries judged in the chosen qrels are returned
 * (BEIR's `queries.jsonl` holds the queries of every split). A judged query id that
 * `queries.jsonl` lacks is an error; a judged document the corpus lacks is not, since it is
 * simply unretrievable and lowers recall.
 *
 * @param dir The dataset folder.
 * @param split A split name such as `"train"`; omit for the default (test) judgements.
 * @throws LookupKnowledgeError (`DATASET_INVALID`) naming the file, the line and what is wrong,
 * or, for a missing file, which file was expected and the BEIR layout.
 * @example
 * const { corpus, queries, qrels } = await loadBeirDataset("datasets/scifact");
 */
export async function loadBeirDataset(dir: string, split?: string): Promise<BeirDataset> {
  const layout = await resolveBeirLayout(dir, split);
  const corpus = await loadBeirCorpus(layout.corpusFile);
  const allQueries = await loadBeirQueries(layout.queriesFile);
  const qrels = await loadBeirQrels(layout.qrelsFile);

  const knownQueryIds = new Set(allQueries.map((query) => query.id));
  for (const queryId of qrels.keys()) {
    if (!knownQueryIds.has(queryId)) {
      throw datasetError(
        layout.qrelsFile,
        undefined,
        `judges query "${queryId}", which is not in ${layout.queriesFile}.`,
      );
    }
  }
  const queries = allQueries.filter((query) => qrels.has(query.id));
  return { corpus, queries, qrels };
}
