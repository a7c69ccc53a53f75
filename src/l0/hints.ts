import type { Chunk, L0Hints } from "../types.js";

/** Turns a phrase into its terms; memoised by the caller, since the same phrases recur per query. */
export type PhraseTerms = (phrase: string) => readonly string[];

/** The short fields of one chunk that the query really matched. */
export interface HintMatch {
  title?: string;
  keywords: string[];
  aliases: string[];
  entities: string[];
  domain?: string;
}

/** A title counts as matched when the query has all its terms, or at least this share of two or more. */
export const TITLE_COVERAGE = 0.6;

function containsPhrase(queryTerms: ReadonlySet<string>, terms: readonly string[]): boolean {
  return terms.length > 0 && terms.every((term) => queryTerms.has(term));
}

function titleMatches(queryTerms: ReadonlySet<string>, terms: readonly string[]): boolean {
  if (terms.length === 0) return false;
  const found = terms.filter((term) => queryTerms.has(term)).length;
  return found === terms.length || (found >= 2 && found / terms.length >= TITLE_COVERAGE);
}

/**
 * Checks which short fields of a chunk the query matched as whole phrases. FlexSearch reports
 * single-term hits; a keyword such as "access review" only counts when both terms are in the query.
 */
export function matchHintFields(queryTerms: ReadonlySet<string>, chunk: Chunk, termsOf: PhraseTerms): HintMatch {
  const { meta } = chunk;
  const phrases = (list: string[]) => list.filter((phrase) => containsPhrase(queryTerms, termsOf(phrase)));
  const title = chunk.title !== undefined && titleMatches(queryTerms, termsOf(chunk.title)) ? chunk.title : undefined;
  const domain = meta.domain !== undefined && containsPhrase(queryTerms, termsOf(meta.domain)) ? meta.domain : undefined;
  return {
    ...(title !== undefined ? { title } : {}),
    keywords: phrases(meta.keywords),
    aliases: phrases(meta.aliases),
    entities: phrases(meta.entities),
    ...(domain !== undefined ? { domain } : {}),
  };
}

/** True when any short field matched. */
export function hasHint(match: HintMatch): boolean {
  return match.title !== undefined || match.domain !== undefined || match.keywords.length + match.aliases.length + match.entities.length > 0;
}

/** Hit reasons of a hint match, each prefixed `L0:`. */
export function hintReasons(match: HintMatch): string[] {
  return [
    ...(match.title !== undefined ? [`L0:title:${match.title}`] : []),
    ...match.aliases.map((alias) => `L0:alias:${alias}`),
    ...match.keywords.map((keyword) => `L0:keyword:${keyword}`),
    ...match.entities.map((entity) => `L0:entity:${entity}`),
    ...(match.domain !== undefined ? [`L0:domain:${match.domain}`] : []),
  ];
}

/**
 * Folds per-chunk matches into the hint data of a lookup. `domains` lists the domains of the
 * documents whose short fields matched (not of every body hit), so one domain means the query
 * points at one part of the knowledge base.
 */
export function collectHints(matches: readonly { chunk: Chunk; match: HintMatch }[]): L0Hints {
  const titles = new Set<string>();
  const keywords = new Set<string>();
  const entities = new Set<string>();
  const domains = new Set<string>();
  for (const { chunk, match } of matches) {
    if (!hasHint(match)) continue;
    if (match.title !== undefined || match.aliases.length > 0) titles.add(chunk.title ?? chunk.file);
    match.keywords.forEach((keyword) => keywords.add(keyword));
    match.entities.forEach((entity) => entities.add(entity));
    const domain = chunk.meta.domain?.trim();
    if (domain) domains.add(domain);
  }
  return { titles: [...titles], keywords: [...keywords], domains: [...domains].sort(), entities: [...entities] };
}
