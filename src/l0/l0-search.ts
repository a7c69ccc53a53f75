import { tokenize } from "../text/tokenize.js";
import type { Candidate, Chunk, L0Hints } from "../types.js";
import type { Bm25Stats } from "./bm25.js";
import { collectHints, createPhraseSpread, hintReasons, matchHintFields, type HintMatch } from "./hints.js";
import type { FieldMatches, KeywordIndex } from "./keyword-index.js";
import { createTermCoverage } from "./term-coverage.js";

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

type Fields = FieldMatches extends Map<number, infer F> ? F : never;

/**
 * A short field can only be a hint when FlexSearch saw a query term in it (the body never is
 * one); a title needs two of its terms, or its only term, before it is worth checking.
 */
function mayHint(fields: Fields, titleTerms: () => number): boolean {
  for (const [field, terms] of fields) {
    if (field === "body") continue;
    if (field !== "title" || terms.size >= 2 || titleTerms() <= 1) return true;
  }
  return false;
}

/**
 * L0: FlexSearch finds every chunk that shares a term with the query, field by field; the short
 * fields become hints; BM25 ranks the candidates. Hit reasons and coverage are worked out for
 * the kept candidates only.
 */
export function createL0Searcher({ chunks, keywordIndex, bm25 }: L0SearcherDeps): L0Searcher {
  const coverage = createTermCoverage(bm25);
  const phraseCache = new Map<string, readonly string[]>();
  const termsOf = (phrase: string) => {
    let terms = phraseCache.get(phrase);
    if (!terms) phraseCache.set(phrase, (terms = tokenize(phrase)));
    return terms;
  };
  const spread = createPhraseSpread(chunks, termsOf, (term) => bm25.documentsWith(term));

  return {
    search(query, { domain, limit }) {
      const queryTerms = tokenize(query);
      const distinct = new Set(queryTerms);
      const matches = keywordIndex.match(query);
      if (domain !== null) for (const id of matches.keys()) if (chunks[id].meta.domain !== domain) matches.delete(id);
      const scores = bm25.score(queryTerms, matches.keys());

      const hintMatches = new Map<number, HintMatch>();
      // Title and frontmatter belong to the file, so every chunk of a file matches them alike.
      const byFile = new Map<string, HintMatch>();
      for (const [id, fields] of matches) {
        const chunk = chunks[id];
        if (!mayHint(fields, () => termsOf(chunk.title ?? "").length)) continue;
        let match = byFile.get(chunk.file);
        if (!match) byFile.set(chunk.file, (match = matchHintFields(distinct, chunk, termsOf)));
        hintMatches.set(id, match);
      }

      const ranked = [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, limit);
      const candidates = ranked.map(([id, score]): Candidate => {
        const fields: Fields = matches.get(id) ?? new Map();
        const bodyTerms = [...(fields.get("body") ?? [])];
        const match = hintMatches.get(id);
        return {
          id,
          chunk: chunks[id],
          score,
          coverage: coverage(queryTerms, id),
          hitReasons: [
            ...(match ? hintReasons(match) : []),
            ...(bodyTerms.length > 0 ? [`L0:body:${bodyTerms.join(",")}`] : []),
            `L0:bm25:${score.toFixed(2)}`,
          ],
        };
      });
      const hints = collectHints([...hintMatches].map(([id, match]) => ({ chunk: chunks[id], match })), spread);
      return { hints, candidates };
    },
  };
}
