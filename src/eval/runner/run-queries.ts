import type { RetrievalGraph } from "../../graph/retrieval-graph.js";
import type { LookupResult } from "../../types.js";
import type { RankedDoc, Run } from "../metrics/index.js";
import { internalError } from "../../errors.js";
import { MAX_QUERY_CHARS } from "../../graph/lookup-schema.js";
import { sliceWhole } from "../../text/cap-text.js";

/** One query to run. */
export interface EvalQuery {
  id: string;
  text: string;
}

/** A run and how long its queries took. */
export interface QueryRun {
  run: Run;
  /** Queries longer than a lookup takes, run on their first {@link MAX_QUERY_CHARS} characters. */
  cutQueries: number;
  /** Milliseconds per query, in query order. */
  latenciesMs: number[];
  results: Map<string, LookupResult>;
}

/** Runs every query through the retrieval graph, as the tool would, keeping up to `depth` sources each. */
export async function runQueries(graph: RetrievalGraph, queries: readonly EvalQuery[], depth: number, onQuery: (done: number) => void = () => {}): Promise<QueryRun> {
  const run: Run = new Map();
  const results = new Map<string, LookupResult>();
  const latenciesMs: number[] = [];
  let cutQueries = 0;
  for (const [i, query] of queries.entries()) {
    // A dataset's query may be longer than the tool takes (argument-retrieval sets quote whole
    // arguments): it runs on its head, and the run says how many were cut, rather than failing.
    const text = query.text.length > MAX_QUERY_CHARS ? sliceWhole(query.text, MAX_QUERY_CHARS) : query.text;
    if (text !== query.text) cutQueries += 1;
    const started = performance.now();
    const { result } = await graph.invoke({ query: text, limit: depth });
    latenciesMs.push(performance.now() - started);
    if (result === null) throw internalError(`the retrieval graph returned no result for query ${query.id}`);
    run.set(query.id, toRankedDocs(result, depth));
    results.set(query.id, result);
    onQuery(i + 1);
  }
  return { run, cutQueries, latenciesMs, results };
}

/**
 * The evidence order as a ranked list. Scores are made strictly decreasing (rounded fused scores
 * can tie), so that a TREC tool sorting by score keeps the tool's own order.
 */
export function toRankedDocs(result: LookupResult, depth: number): RankedDoc[] {
  let previous = Number.POSITIVE_INFINITY;
  return result.evidence.map((block, rank) => {
    let score = Number((block.score ?? depth - rank).toFixed(6));
    if (score >= previous) score = Number((previous - 1e-6).toFixed(6));
    previous = score;
    return { docId: block.source, score };
  });
}

/** Re-exported from `latency.ts`, where it lives. */
export { percentile } from "../metrics/latency.js";
