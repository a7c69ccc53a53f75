/**
 * Relevance judgements: query id → document id → graded relevance. A grade of 0 means "judged
 * non-relevant"; any grade above 0 counts as relevant, and the grade is the nDCG gain. A document
 * absent from the inner map is unjudged and treated as non-relevant, as trec_eval does.
 */
export type Qrels = Map<string, Map<string, number>>;

/** One retrieved document with the score the system gave it (higher is better). */
export interface RankedDoc {
  /** The document's id, as in the qrels. */
  docId: string;
  /** The system's score; ties are broken by document id. */
  score: number;
}

/**
 * A retrieval run: query id → retrieved documents, in any order. Order is fixed by
 * `rankRun` (score, then document id), never by array position.
 */
export type Run = Map<string, RankedDoc[]>;

/** The per-query metrics the evaluation harness reports, each in [0, 1]. */
export interface MetricValues {
  /** nDCG@10 (graded gain, trec_eval's `ndcg_cut_10`). */
  ndcgAt10: number;
  /** Share of the relevant documents in the top 10. */
  recallAt10: number;
  /** Share of the relevant documents in the top 100. */
  recallAt100: number;
  /** Reciprocal rank of the first relevant document in the top 10, else 0. */
  mrrAt10: number;
}
