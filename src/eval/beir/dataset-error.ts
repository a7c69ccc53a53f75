import { LookupKnowledgeError } from "../../errors.js";

/** The BEIR layout, spelled out in every "missing file" message so the fix is obvious. */
export const BEIR_LAYOUT_HELP =
  "A BEIR dataset folder holds corpus.jsonl, queries.jsonl and qrels as qrels.tsv or " +
  "qrels/<split>.tsv (tab-separated, header row `query-id\tcorpus-id\tscore`); a split may " +
  "instead have its own folder <split>/ with queries.jsonl and qrels.tsv, next to the shared " +
  "corpus.jsonl.";

/**
 * Builds the error for a dataset file that cannot be used, naming the file and, when the problem
 * is on one line, its 1-based line number: `lookup-knowledge: <file>:<line>: <detail>`.
 */
export function datasetError(
  file: string,
  lineNumber: number | undefined,
  detail: string,
  cause?: unknown,
): LookupKnowledgeError {
  const where = lineNumber === undefined ? file : `${file}:${lineNumber}`;
  return new LookupKnowledgeError("DATASET_INVALID", `${where}: ${detail}`, { cause });
}
