import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadBeirDataset } from "../../src/eval/beir/index.js";
import { BenchError, errorText } from "../bench-error.js";
import type { SourceDocument } from "./replicate-corpus.js";

/** The repository root (bench/ lives directly below it). */
export const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/** Where the dataset is looked for without `--dataset`: `../shared/datasets/scifact` next to the repository. */
export const DEFAULT_DATASET_DIR = resolve(REPO_ROOT, "../shared/datasets/scifact");

const WHERE_TO_GET =
  "get BEIR SciFact (https://public.ukp.informatik.tu-darmstadt.de/thakur/BEIR/datasets/scifact.zip) and pass --dataset DIR, or unpack it into ../shared/datasets/scifact beside the clone";

/**
 * Checks that `dir` holds a BEIR dataset (corpus.jsonl and queries.jsonl) before any child starts.
 * @throws BenchError naming the folder and where to get the dataset.
 */
export function checkDatasetDir(dir: string): void {
  for (const file of ["corpus.jsonl", "queries.jsonl"]) {
    if (!existsSync(join(dir, file)))
      throw new BenchError(`no SciFact dataset in ${dir} (${file} is missing); ${WHERE_TO_GET}.`);
  }
}

/** The SciFact documents and the test claims (the queries judged in the test qrels). */
export interface SciFact {
  docs: SourceDocument[];
  queries: string[];
}

/** Loads the corpus and the test claims with the eval's BEIR reader. */
export async function loadSciFact(dir: string): Promise<SciFact> {
  checkDatasetDir(dir);
  try {
    const { corpus, queries } = await loadBeirDataset(dir);
    return { docs: corpus, queries: queries.map((query) => query.text) };
  } catch (error) {
    throw new BenchError(`cannot read the dataset in ${dir}: ${errorText(error)}`, { cause: error });
  }
}
