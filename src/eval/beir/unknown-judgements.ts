import { LookupKnowledgeError } from "../../errors.js";
import { datasetError } from "./dataset-error.js";
import { shownValue } from "../../shown-value.js";

/**
 * How many qrels judgements may name a document that the corpus lacks or a query that the queries
 * file lacks before the qrels are refused as not belonging to the dataset. Published BEIR sets
 * have a few such lines (ArguAna one missing document, NFCorpus a few missing queries); a qrels
 * file of another corpus or split has almost nothing else, and evaluating it only burns time,
 * memory and a report on judgements no run can ever meet.
 */
export interface UnknownJudgementLimits {
  /**
   * Most judgements naming an unknown document or query, counted together. Reading stops at the
   * first one past it, so a large wrong file is refused after a bounded amount of work.
   * @default 1000
   */
  maxUnknownJudgements?: number;
  /**
   * Most such judgements as a share of all judgements in the file (0 to 1), checked once the file
   * is read and only when more than {@link UNKNOWN_SHARE_FLOOR} are unknown, so that a small
   * hand-made set missing a document or two is still read.
   * @default 0.1
   */
  maxUnknownShare?: number;
}

/** Default of {@link UnknownJudgementLimits.maxUnknownJudgements}. */
export const DEFAULT_MAX_UNKNOWN_JUDGEMENTS = 1000;
/** Default of {@link UnknownJudgementLimits.maxUnknownShare}. */
export const DEFAULT_MAX_UNKNOWN_SHARE = 0.1;
/** Unknown judgements below which the share limit does not apply. */
export const UNKNOWN_SHARE_FLOOR = 10;

/** What a qrels file judged that the dataset lacks, so far. */
export interface UnknownJudgements {
  /** Judgements read (the header and blank lines not counted). */
  judgements: number;
  /** Judgements naming a document that the corpus lacks (of a known query). */
  documents: number;
  /** Judgements naming a query that the queries file lacks. */
  queries: number;
  /** The first judgement naming an unknown document or query: its line and what it named. */
  first?: { lineNumber: number; kind: "document" | "query"; id: string };
}

/** The limits with their defaults applied, checked: each a finite number in range. */
export function resolveUnknownLimits(limits: UnknownJudgementLimits = {}): Required<UnknownJudgementLimits> {
  const maxUnknownJudgements = limits.maxUnknownJudgements ?? DEFAULT_MAX_UNKNOWN_JUDGEMENTS;
  const maxUnknownShare = limits.maxUnknownShare ?? DEFAULT_MAX_UNKNOWN_SHARE;
  if (!Number.isInteger(maxUnknownJudgements) || maxUnknownJudgements < 0)
    throw new LookupKnowledgeError("INVALID_OPTION", `maxUnknownJudgements must be an integer from 0, got ${String(maxUnknownJudgements)}.`);
  if (typeof maxUnknownShare !== "number" || !(maxUnknownShare >= 0 && maxUnknownShare <= 1))
    throw new LookupKnowledgeError("INVALID_OPTION", `maxUnknownShare must be a number from 0 to 1, got ${String(maxUnknownShare)}.`);
  return { maxUnknownJudgements, maxUnknownShare };
}

/**
 * Which limit `counts` passes, if any: `"count"` as soon as more than `maxUnknownJudgements` are
 * unknown, `"share"` (only when `complete`, the whole file read) when more than `maxUnknownShare`
 * of the judgements are and more than {@link UNKNOWN_SHARE_FLOOR}.
 */
export function unknownLimitPassed(
  counts: UnknownJudgements,
  limits: Required<UnknownJudgementLimits>,
  complete: boolean,
): "count" | "share" | undefined {
  const unknown = counts.documents + counts.queries;
  if (unknown > limits.maxUnknownJudgements) return "count";
  if (complete && unknown > UNKNOWN_SHARE_FLOOR && unknown > limits.maxUnknownShare * counts.judgements) return "share";
  return undefined;
}

const grouped = (n: number) => n.toLocaleString("en-US");

/**
 * The one-line refusal: the counts, the limit passed, the first unknown id and the fix.
 * `names.corpus` and `names.queries` are the files the ids were looked up in.
 */
export function unknownJudgementsError(
  file: string,
  counts: UnknownJudgements,
  passed: "count" | "share",
  limits: Required<UnknownJudgementLimits>,
  names: { corpus: string; queries: string },
): LookupKnowledgeError {
  const unknown = counts.documents + counts.queries;
  const read = passed === "count" ? `of the first ${grouped(counts.judgements)} judgements` : `of ${grouped(counts.judgements)} judgements`;
  const limit =
    passed === "count"
      ? `more than the ${grouped(limits.maxUnknownJudgements)} allowed`
      : `more than ${Math.round(limits.maxUnknownShare * 1000) / 10}% of them`;
  const first = counts.first ? `; the first, on line ${counts.first.lineNumber}, names ${counts.first.kind} ${shownValue(counts.first.id)}` : "";
  return datasetError(
    file,
    undefined,
    `${grouped(unknown)} ${read} name something the dataset lacks (${grouped(counts.documents)} a document not in ${names.corpus}, ${grouped(counts.queries)} a query not in ${names.queries}), ${limit}${first}. These qrels do not belong to this corpus and queries: check --dataset and --split (or, from code, raise maxUnknownJudgements or maxUnknownShare).`,
  );
}
