import type { ChunkFilter } from "../access/chunk-filter.js";
import { tokenize } from "../text/tokenize.js";
import type { Candidate, Chunk, L0Hints } from "../types.js";
import type { Bm25Stats } from "./bm25.js";
import type { HintField, HintIndex } from "./hint-index.js";
import {
  collectHints,
  createPhraseSpread,
  hasHint,
  hintReasons,
  matchHintFields,
  phraseMatches,
  type HintMatch,
} from "./hints.js";
import { createTermCoverage } from "./term-coverage.js";

/** What L0 found for one query: hint data and BM25-ranked candidates. */
export interface L0Result {
  /** What the query matched in the files' short fields (title, keywords, aliases, entities, domain). */
  hints: L0Hints;
  /** At most `limit` chunks, BM25-ranked, then chunks of hint-matched files that BM25 did not score (score 0). */
  candidates: Candidate[];
}

/** Options of one L0 search. */
export interface L0SearchOptions {
  /** Only chunks of this domain (a domain the caller forced). */
  domain: string | null;
  /** How many candidates to keep. */
  limit: number;
  /**
   * The chunks the lookup may see (its access scope and domain together): only they are scored,
   * and hints come only from their files. Null or absent: `domain` alone decides.
   */
  filter?: ChunkFilter | null;
  /**
   * The chunks the lookup's access scope may read, in every domain: how widely a phrase is spread
   * over the domains (`domainEvidence` strength) is counted over these only. Null or absent: every chunk.
   */
  readable?: ChunkFilter | null;
}

/** The L0 layer as the graph sees it. */
export interface L0Searcher {
  /** Finds the hints and the keyword candidates of `query` among the chunks `options` admit (synchronous). */
  search(query: string, options: L0SearchOptions): L0Result;
}

/** Collaborators of {@link createL0Searcher}. */
export interface L0SearcherDeps {
  chunks: readonly Chunk[];
  hintIndex: HintIndex;
  bm25: Bm25Stats;
}

/**
 * L0: BM25 top-k by pruned retrieval over the postings ranks the candidates; FlexSearch over the
 * short fields' distinct phrases finds the files whose title, keywords, aliases, entities or
 * domain the query names, which become the hints. Both cost what the query's terms cost, not
 * what the corpus holds. Chunks that only a hint field matched (BM25 0) fill up the candidate
 * list behind every scored chunk, in chunk order. Hit reasons and coverage are worked out for
 * the kept candidates only.
 */
export function createL0Searcher({ chunks, hintIndex, bm25 }: L0SearcherDeps): L0Searcher {
  const coverage = createTermCoverage(bm25);
  const phraseCache = new Map<string, readonly string[]>();
  const termsOf = (phrase: string) => {
    let terms = phraseCache.get(phrase);
    if (!terms) phraseCache.set(phrase, (terms = tokenize(phrase)));
    return terms;
  };
  const spread = createPhraseSpread(chunks, termsOf, (term) => bm25.documentsWith(term));
  const chunksOfFile = new Map<string, number[]>();
  chunks.forEach((chunk, id) => {
    const list = chunksOfFile.get(chunk.file);
    if (list) list.push(id);
    else chunksOfFile.set(chunk.file, [id]);
  });

  return {
    search(query, { domain, limit, filter = null, readable = null }) {
      const queryTerms = tokenize(query);
      const distinct = new Set(queryTerms);
      const inDomain =
        filter !== null
          ? (id: number) => filter.admitted[id] === 1
          : (id: number) => domain === null || chunks[id].meta.domain === domain;

      // Title and frontmatter belong to the file, so its first chunk speaks for all of them.
      const fileMatches: { chunk: Chunk; file: string; match: HintMatch }[] = [];
      const matches = (field: HintField, phrase: string) => phraseMatches(field, distinct, termsOf(phrase));
      const files = hintIndex.matchingFiles(query, matches, (file) => {
        const first = chunksOfFile.get(file)?.[0];
        return first !== undefined && inDomain(first);
      });
      for (const file of files) {
        const first = chunksOfFile.get(file)?.[0];
        if (first === undefined) continue;
        const match = matchHintFields(distinct, chunks[first], termsOf);
        if (hasHint(match)) fileMatches.push({ chunk: chunks[first], file, match });
      }

      const ranked: { id: number; score: number }[] =
        filter !== null
          ? bm25.topKAmong(queryTerms, limit, filter.ids, filter.admitted)
          : bm25.topK(queryTerms, limit, domain === null ? undefined : inDomain);
      if (ranked.length < limit && fileMatches.length > 0) {
        const taken = new Set(ranked.map(({ id }) => id));
        const unscored = fileMatches
          .flatMap(({ file }) => chunksOfFile.get(file) ?? [])
          .filter((id) => !taken.has(id) && inDomain(id));
        for (const id of [...new Set(unscored)].sort((a, b) => a - b).slice(0, limit - ranked.length))
          ranked.push({ id, score: 0 });
      }
      const hintOfFile = new Map(fileMatches.map(({ file, match }) => [file, match]));
      const candidates = ranked.map(({ id, score }): Candidate => {
        const chunk = chunks[id];
        const match = hintOfFile.get(chunk.file) ?? matchHintFields(distinct, chunk, termsOf);
        const bodyTerms = [...distinct].filter((term) => bm25.contains(id, term));
        return {
          id,
          chunk,
          score,
          coverage: coverage(queryTerms, id),
          hitReasons: [
            ...(hasHint(match) ? hintReasons(match) : []),
            ...(bodyTerms.length > 0 ? [`L0:body:${bodyTerms.join(",")}`] : []),
            `L0:bm25:${score.toFixed(2)}`,
          ],
        };
      });
      const hints = collectHints(fileMatches, readable === null ? spread : (phrase) => spread(phrase, readable));
      return { hints, candidates };
    },
  };
}
