import type { Qrels } from "../metrics/types.js";
import type { UnknownJudgements } from "./unknown-judgements.js";

/** One corpus document of a BEIR dataset. */
export interface BeirDocument {
  /** The record's `_id` (BEIR's spelling) or, failing that, `id`; numbers become strings. */
  id: string;
  /** The record's `title`; `""` when the record has none. */
  title: string;
  /** The record's `text`, the document's body. */
  text: string;
  /**
   * Every other top-level field of the record, unchanged (for example `category`, `keywords`,
   * `tags`, `entities`, `domain`, or BEIR's own nested `metadata` object).
   */
  metadata: Record<string, unknown>;
}

/** One query of a BEIR dataset. */
export interface BeirQuery {
  /** The record's `_id` or, failing that, `id`; numbers become strings. */
  id: string;
  /** The record's `text`, the query itself. */
  text: string;
  /** Every other top-level field of the record, unchanged. */
  metadata: Record<string, unknown>;
}

/** A loaded BEIR dataset: the corpus, the queries of one split and their judgements. */
export interface BeirDataset {
  /** Every document of `corpus.jsonl`, in file order. */
  corpus: BeirDocument[];
  /** The queries judged in `qrels`, in `queries.jsonl` order. */
  queries: BeirQuery[];
  /** The split's judgements of the known queries (those of a document the corpus lacks are kept: it only lowers recall). */
  qrels: Qrels;
  /** How many judgements of the qrels name a document or query that the dataset lacks (see `UnknownJudgementLimits`). */
  unknownJudgements: UnknownJudgements;
}

/** The three files a dataset is read from, as resolved by `resolveBeirLayout`. */
export interface BeirLayout {
  /** Path of `corpus.jsonl`. */
  corpusFile: string;
  /** Path of `queries.jsonl`. */
  queriesFile: string;
  /** Path of the split's qrels file. */
  qrelsFile: string;
}
