import type { Qrels } from "../metrics/types.js";
import { datasetError } from "./dataset-error.js";
import { readLines } from "./read-lines.js";
import { shownValue } from "../../shown-value.js";
import {
  resolveUnknownLimits,
  unknownJudgementsError,
  unknownLimitPassed,
  type UnknownJudgementLimits,
  type UnknownJudgements,
} from "./unknown-judgements.js";

const HEADER = ["query-id", "corpus-id", "score"];
const INTEGER = /^-?\d+$/;

/** Options of {@link readBeirQrels}. */
export interface ReadQrelsOptions extends UnknownJudgementLimits {
  /** The corpus's document ids; a judgement of another document counts as unknown. @default none: no document is unknown */
  documentIds?: ReadonlySet<string>;
  /** The queries file's ids; a judgement of another query counts as unknown and is left out. @default none: no query is unknown */
  queryIds?: ReadonlySet<string>;
  /** The files the ids come from, as the refusal names them. @default "the corpus" and "the queries" */
  names?: { corpus: string; queries: string };
}

/** What {@link readBeirQrels} read: the judgements of known queries, and the count of unknown ones. */
export interface ReadQrels {
  qrels: Qrels;
  unknown: UnknownJudgements;
}

/**
 * Streams a BEIR qrels file: a header row `query-id<TAB>corpus-id<TAB>score`, then one judgement
 * per line with an integer grade (0 = judged non-relevant). Blank lines are skipped. A file whose
 * first line is already a judgement is read whole (BEIR would silently drop that line as a header).
 * A judgement repeated with the same grade is harmless; with a different grade it is an error,
 * since there is no right answer to pick.
 *
 * With `documentIds` and `queryIds`, judgements naming a document or query the dataset lacks are
 * counted: those of unknown queries are left out (no run can answer a query without its text),
 * those of unknown documents kept (they only lower recall, as in BEIR). Past the limits of
 * {@link UnknownJudgementLimits} the file is refused, as soon as the count limit is passed.
 *
 * @throws LookupKnowledgeError (`DATASET_INVALID`) naming the file and line for a wrong field
 * count, a non-integer grade, an unrecognised first line, or conflicting grades; naming the
 * counts for too many unknown ids.
 */
export async function readBeirQrels(file: string, options: ReadQrelsOptions = {}): Promise<ReadQrels> {
  const limits = resolveUnknownLimits(options);
  const names = options.names ?? { corpus: "the corpus", queries: "the queries" };
  const { documentIds, queryIds } = options;
  const qrels: Qrels = new Map();
  const judgedOn = new Map<string, number>();
  const unknown: UnknownJudgements = { judgements: 0, documents: 0, queries: 0 };
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
        const isHeader = fields.length === 3 && fields.every((field, i) => field.toLowerCase() === HEADER[i]);
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

    unknown.judgements += 1;
    const unknownQuery = queryIds !== undefined && !queryIds.has(queryId);
    const unknownDocument = !unknownQuery && documentIds !== undefined && !documentIds.has(docId);
    if (unknownQuery || unknownDocument) {
      if (unknownQuery) unknown.queries += 1;
      else unknown.documents += 1;
      unknown.first ??= { lineNumber, kind: unknownQuery ? "query" : "document", id: unknownQuery ? queryId : docId };
      if (unknownLimitPassed(unknown, limits, false) !== undefined)
        throw unknownJudgementsError(file, unknown, "count", limits, names);
      if (unknownQuery) continue;
    }

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
  const passed = unknownLimitPassed(unknown, limits, true);
  if (passed !== undefined) throw unknownJudgementsError(file, unknown, passed, limits, names);
  return { qrels, unknown };
}

/**
 * Streams a BEIR qrels file into its judgements: {@link readBeirQrels} without the counts.
 * @throws LookupKnowledgeError (`DATASET_INVALID`) as {@link readBeirQrels}.
 */
export async function loadBeirQrels(file: string, options: ReadQrelsOptions = {}): Promise<Qrels> {
  return (await readBeirQrels(file, options)).qrels;
}
