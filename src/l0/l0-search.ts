import { tokenize } from "../text/tokenize.js";
import type { Candidate, Chunk, L0Hints } from "../types.js";
import type { Bm25Stats } from "./bm25.js";
import { collectHints, hintReasons, matchHintFields, type HintMatch } from "./hints.js";
import type { KeywordIndex } from "./keyword-index.js";

/** What L0 found for one query: hint data and BM25-ranked candidates. */
export interface L0Result {
  hints: L0Hints;
  candidates: Candidate[];
}

/** Options of one L0 search. */
export interface L0SearchOptions {
  /** Only chunks of this domain (a domain the caller forced). */
  domain: string | null;
  /** How many candidates to keep. */
  limit: number;
}

/** The L0 layer as the graph sees it. */
export interface L0Searcher {
  search(query: string, options: L0SearchOptions): L0Result;
}

/** Collaborators of {@link createL0Searcher}. */
export interface L0SearcherDeps {
  chunks: readonly Chunk[];
  keywordIndex: KeywordIndex;
  bm25: Bm25Stats;
}

/**
 * L0: FlexSearch finds every chunk that shares a term with the query, field by field; the short
 * fields become hints; BM25 ranks the candidates.
 */
export function createL0Searcher({ chunks, keywordIndex, bm25 }: L0SearcherDeps): L0Searcher {
  const phraseCache = new Map<string, readonly string[]>();
  const termsOf = (phrase: string) => {
    let terms = phraseCache.get(phrase);
    if (!terms) phraseCache.set(phrase, (terms = tokenize(phrase)));
    return terms;
  };

  return {
    search(query, { domain, limit }) {
      const queryTerms = tokenize(query);
      const distinct = new Set(queryTerms);
      const matches = keywordIndex.match(query, domain);
      const scores = bm25.score(queryTerms, matches.keys());
      const hintMatches: { chunk: Chunk; match: HintMatch }[] = [];
      const candidates: Candidate[] = [];

      for (const [id, fields] of matches) {
        const chunk = chunks[id];
        const match = matchHintFields(distinct, chunk, termsOf);
        hintMatches.push({ chunk, match });
        const found = new Set<string>();
        fields.forEach((terms) => terms.forEach((term) => found.add(term)));
        const bodyTerms = [...(fields.get("body") ?? [])];
        const score = scores.get(id) ?? 0;
        candidates.push({
          id,
          chunk,
          score,
          coverage: distinct.size > 0 ? found.size / distinct.size : 0,
          hitReasons: [
            ...hintReasons(match),
            ...(bodyTerms.length > 0 ? [`L0:body:${bodyTerms.join(",")}`] : []),
            `L0:bm25:${score.toFixed(2)}`,
          ],
        });
      }
      candidates.sort((a, b) => b.score - a.score || a.id - b.id);
      return { hints: collectHints(hintMatches), candidates: candidates.slice(0, limit) };
    },
  };
}
