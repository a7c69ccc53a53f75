import { LookupKnowledgeError } from "../../errors.js";
import type { Run } from "../metrics/types.js";
import { shownValue } from "../../shown-value.js";

/**
 * Reads a TREC run (`qid Q0 docid rank score tag` per line, whitespace-separated). As in
 * trec_eval, the rank column is ignored: order comes from the scores, through `rankRun`. Documents
 * are kept in file order and duplicates are kept, so the result is exactly what the file says.
 * Blank lines are skipped.
 *
 * @param text The whole run file.
 * @returns The run, queries in order of first appearance.
 * @throws LookupKnowledgeError (`DATASET_INVALID`) naming the 1-based line for a wrong field count
 * or a score that is not a finite number.
 */
export function parseTrecRun(text: string): Run {
  const run: Run = new Map();
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const fields = line.trim().split(/\s+/);
    const lineNumber = index + 1;
    if (fields.length !== 6) {
      throw new LookupKnowledgeError(
        "DATASET_INVALID",
        `TREC run line ${lineNumber}: expected 6 fields "qid Q0 docid rank score tag", ` +
          `found ${fields.length}.`,
      );
    }
    const [queryId, , docId, , rawScore] = fields;
    const score = Number(rawScore);
    if (!Number.isFinite(score)) {
      throw new LookupKnowledgeError(
        "DATASET_INVALID",
        `TREC run line ${lineNumber}: score ${shownValue(rawScore)} is not a finite number.`,
      );
    }
    let docs = run.get(queryId);
    if (docs === undefined) {
      docs = [];
      run.set(queryId, docs);
    }
    docs.push({ docId, score });
  });
  return run;
}
