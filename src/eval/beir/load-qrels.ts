import type { Qrels } from "../metrics/types.js";
import { datasetError } from "./dataset-error.js";
import { readLines } from "./read-lines.js";
import { shownValue } from "./shown-value.js";

const HEADER = ["query-id", "corpus-id", "score"];
const INTEGER = /^-?\d+$/;

/**
 * Streams a BEIR qrels file: a header row `query-id<TAB>corpus-id<TAB>score`, then one judgement
 * per line with an integer grade (0 = judged non-relevant). Blank lines are skipped. A file whose
 * first line is already a judgement is read whole (BEIR would silently drop that line as a header).
 * A judgement repeated with the same grade is harmless; with a different grade it is an error,
 * since there is no right answer to pick.
 *
 * @throws LookupKnowledgeError (`DATASET_INVALID`) naming the file and line for a wrong field
 * count, a non-integer grade, an unrecognised first line, or conflicting grades.
 */
export async function loadBeirQrels(file: string): Promise<Qrels> {
  const qrels: Qrels = new Map();
  const judgedOn = new Map<string, number>();
  let sawFirstLine = false;
  for await (const { text, lineNumber } of readLines(file)) {
    const line = text.trimEnd();
    if (line.trim() === "") continue;
    const fields = line.split("\t").map((field) => field.trim());
    const usesSpaces = !line.includes("\t") && /\s/.test(line.trim());
    const tabHint = usesSpaces ? " (fields must be separated by tabs)" : "";

    if (!sawFirstLine) {
      sawFirstLine = true;
      const isJudgement = fields.length === 3 && INTEGER.test(fields[2]);
      if (!isJudgement) {
        const isHeader =
          fields.length === 3 && fields.every((field, i) => field.toLowerCase() === HEADER[i]);
        if (isHeader) continue;
        throw datasetError(
          file,
          lineNumber,
          // The line itself is not shown: a file linked in place of the qrels would have its first line copied into the error.
          `expected the header row "${HEADER.join("\\t")}" or a judgement, found a line of ${fields.length} ${fields.length === 1 ? "field" : "fields"} and ${line.length} characters${tabHint}.`,
        );
      }
    }

    if (fields.length !== 3) {
      throw datasetError(
        file,
        lineNumber,
        `expected 3 tab-separated fields (query-id, corpus-id, score), found ${fields.length}${tabHint}.`,
      );
    }
    const [queryId, docId, rawScore] = fields;
    if (queryId === "" || docId === "") {
      throw datasetError(file, lineNumber, "query-id and corpus-id must not be empty.");
    }
    if (!INTEGER.test(rawScore)) {
      throw datasetError(file, lineNumber, `score ${shownValue(rawScore)} is not an integer.`);
    }
    const score = Number(rawScore);

    let judgements = qrels.get(queryId);
    if (judgements === undefined) {
      judgements = new Map();
      qrels.set(queryId, judgements);
    }
    const previous = judgements.get(docId);
    if (previous !== undefined && previous !== score) {
      throw datasetError(
        file,
        lineNumber,
        `query ${shownValue(queryId)} judges document ${shownValue(docId)} ${score}, but line ` +
          `${judgedOn.get(`${queryId}\t${docId}`)} judged it ${previous}.`,
      );
    }
    if (previous === undefined) judgedOn.set(`${queryId}\t${docId}`, lineNumber);
    judgements.set(docId, score);
  }
  return qrels;
}
