import { stat } from "node:fs/promises";
import { join } from "node:path";
import { BEIR_LAYOUT_HELP, datasetError } from "./dataset-error.js";
import type { BeirLayout } from "./types.js";

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function firstExisting(
  dir: string,
  what: string,
  candidates: readonly string[],
): Promise<string> {
  for (const candidate of candidates) {
    if (await isFile(candidate)) return candidate;
  }
  throw datasetError(
    dir,
    undefined,
    `no ${what} file: expected ${candidates.map((c) => `"${c}"`).join(" or ")}. ${BEIR_LAYOUT_HELP}`,
  );
}

/**
 * Finds the corpus, queries and qrels files of a BEIR dataset folder. The corpus is always
 * `dir/corpus.jsonl`. Queries and qrels come from the first layout that exists:
 *
 * 1. with `split`, a split folder: `dir/<split>/queries.jsonl` and `dir/<split>/qrels.tsv`;
 * 2. with `split`, the layout BEIR downloads use: `dir/queries.jsonl` and `dir/qrels/<split>.tsv`;
 * 3. without `split`: `dir/queries.jsonl` and `dir/qrels.tsv`, else `dir/qrels/test.tsv`.
 *
 * The top-level `qrels.tsv` is the test split, so `split` "test" also finds it (after the other two).
 *
 * @throws LookupKnowledgeError (`DATASET_INVALID`) naming the folder and the expected file paths
 * when a file is missing.
 */
export async function resolveBeirLayout(dir: string, split?: string): Promise<BeirLayout> {
  let isDir: boolean;
  try {
    isDir = (await stat(dir)).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) {
    throw datasetError(dir, undefined, `is not a directory. ${BEIR_LAYOUT_HELP}`);
  }

  const corpusFile = await firstExisting(dir, "corpus", [join(dir, "corpus.jsonl")]);
  if (split !== undefined) {
    const splitQueries = join(dir, split, "queries.jsonl");
    if (await isFile(splitQueries)) {
      const qrelsFile = await firstExisting(dir, `"${split}" qrels`, [
        join(dir, split, "qrels.tsv"),
      ]);
      return { corpusFile, queriesFile: splitQueries, qrelsFile };
    }
  }
  // With a split, name the split folder too, so the error shows both places that were tried.
  const queriesCandidates =
    split === undefined
      ? [join(dir, "queries.jsonl")]
      : [join(dir, split, "queries.jsonl"), join(dir, "queries.jsonl")];
  const queriesFile = await firstExisting(dir, "queries", queriesCandidates);
  const qrelsCandidates =
    split === undefined
      ? [join(dir, "qrels.tsv"), join(dir, "qrels", "test.tsv")]
      : split === "test"
        ? [join(dir, "qrels", "test.tsv"), join(dir, "qrels.tsv")]
        : [join(dir, "qrels", `${split}.tsv`)];
  const qrelsFile = await firstExisting(dir, "qrels", qrelsCandidates);
  return { corpusFile, queriesFile, qrelsFile };
}
