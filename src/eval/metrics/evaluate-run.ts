import { mrrAtK } from "./mrr.js";
import { ndcgAtK } from "./ndcg.js";
import { rankRun } from "./rank-run.js";
import { recallAtK } from "./recall.js";
import { countRelevant } from "./relevance.js";
import type { MetricValues, Qrels, RankedDoc, Run } from "./types.js";

/** Options for {@link evaluateRun}. */
export interface EvaluateRunOptions {
  /**
   * Drop retrieved documents whose id equals the query id before ranking, as BEIR's
   * `EvaluateRetrieval.evaluate(ignore_identical_ids=True)` does for datasets such as ArguAna and
   * Quora, where a query is itself a corpus document.
   * @default false
   */
  ignoreIdenticalIds?: boolean;
}

/** Scores of a whole run: per query, the mean, and which queries were left out and why. */
export interface RunEvaluation {
  /** Metrics of every evaluated query, in qrels order. Left-out queries have no entry. */
  perQuery: Map<string, MetricValues>;
  /** Arithmetic mean over `perQuery`; all zeros when no query could be evaluated. */
  mean: MetricValues;
  /** Number of queries in `perQuery`, i.e. the divisor of `mean`. */
  evaluatedQueries: number;
  /** Of the evaluated queries, those the run has no ranking for; each scored 0 on every metric. */
  missingFromRun: number;
  /** Queries in the run with no judgements in qrels; left out of `mean`. */
  unjudgedQueries: number;
  /** Queries in qrels whose judgements are all 0 (nothing relevant); left out of `mean`. */
  noRelevantQueries: number;
}

const ZERO: MetricValues = { ndcgAt10: 0, recallAt10: 0, recallAt100: 0, mrrAt10: 0 };

function scoreQuery(ranked: readonly string[], judgements: ReadonlyMap<string, number>): MetricValues {
  return {
    ndcgAt10: ndcgAtK(ranked, judgements, 10),
    recallAt10: recallAtK(ranked, judgements, 10),
    recallAt100: recallAtK(ranked, judgements, 100),
    mrrAt10: mrrAtK(ranked, judgements, 10),
  };
}

function meanOf(values: Iterable<MetricValues>): MetricValues {
  const sum = { ...ZERO };
  let n = 0;
  for (const v of values) {
    sum.ndcgAt10 += v.ndcgAt10;
    sum.recallAt10 += v.recallAt10;
    sum.recallAt100 += v.recallAt100;
    sum.mrrAt10 += v.mrrAt10;
    n += 1;
  }
  if (n === 0) return sum;
  return {
    ndcgAt10: sum.ndcgAt10 / n,
    recallAt10: sum.recallAt10 / n,
    recallAt100: sum.recallAt100 / n,
    mrrAt10: sum.mrrAt10 / n,
  };
}

/**
 * Scores a run against qrels with nDCG@10, Recall@10, Recall@100 and MRR@10.
 *
 * Which queries count, stated once because the benchmarks disagree at the edges:
 * - a query with at least one relevant judgement (grade > 0) is evaluated; if the run has no
 *   ranking for it, it scores 0 on every metric (trec_eval's `-c`), so a retriever cannot raise
 *   its mean by returning nothing for hard queries;
 * - a query the run answers but qrels does not judge is ignored, as trec_eval and BEIR ignore it,
 *   and counted in `unjudgedQueries`;
 * - a query whose judgements are all 0 has no defined nDCG or recall, so it is left out and
 *   counted in `noRelevantQueries` (trec_eval would average a 0 in for it).
 *
 * Each query's documents are normalised with `rankRun` first, so ties and duplicates are handled
 * the same way for every metric.
 *
 * @param run Retrieved documents per query, in any order.
 * @param qrels Graded judgements per query.
 * @param options See {@link EvaluateRunOptions}.
 * @example
 * const { mean, evaluatedQueries } = evaluateRun(run, qrels);
 * console.log(`nDCG@10 ${mean.ndcgAt10.toFixed(4)} over ${evaluatedQueries} queries`);
 */
export function evaluateRun(run: Run, qrels: Qrels, options: EvaluateRunOptions = {}): RunEvaluation {
  const ignoreIdenticalIds = options.ignoreIdenticalIds ?? false;
  const perQuery = new Map<string, MetricValues>();
  let missingFromRun = 0;
  let noRelevantQueries = 0;

  for (const [queryId, judgements] of qrels) {
    if (countRelevant(judgements) === 0) {
      if (judgements.size > 0) noRelevantQueries += 1;
      continue;
    }
    const docs: readonly RankedDoc[] | undefined = run.get(queryId);
    if (docs === undefined) {
      missingFromRun += 1;
      perQuery.set(queryId, { ...ZERO });
      continue;
    }
    const kept = ignoreIdenticalIds ? docs.filter((doc) => doc.docId !== queryId) : docs;
    perQuery.set(queryId, scoreQuery(rankRun(kept), judgements));
  }

  let unjudgedQueries = 0;
  for (const queryId of run.keys()) {
    if ((qrels.get(queryId)?.size ?? 0) === 0) unjudgedQueries += 1;
  }

  return {
    perQuery,
    mean: meanOf(perQuery.values()),
    evaluatedQueries: perQuery.size,
    missingFromRun,
    unjudgedQueries,
    noRelevantQueries,
  };
}
