import type { Chunk, L0Hints } from "../types.js";

/** Hint data of a lookup in which no short field matched. */
export function emptyHints(): L0Hints {
  return { titles: [], keywords: [], domains: [], entities: [], domainEvidence: [] };
}

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
 * True when a phrase of a short field counts as matched by the query: a title by
 * {@link TITLE_COVERAGE}, any other phrase when the query holds all of its terms.
 */
export function phraseMatches(
  field: "title" | "keyword" | "alias" | "entity" | "domain",
  queryTerms: ReadonlySet<string>,
  terms: readonly string[],
): boolean {
  return field === "title" ? titleMatches(queryTerms, terms) : containsPhrase(queryTerms, terms);
}

/**
 * Checks which short fields of a chunk the query matched as whole phrases. FlexSearch reports
 * single-term hits; a keyword such as "access review" only counts when both terms are in the query.
 */
export function matchHintFields(queryTerms: ReadonlySet<string>, chunk: Chunk, termsOf: PhraseTerms): HintMatch {
  const { meta } = chunk;
  const phrases = (list: string[]) => list.filter((phrase) => containsPhrase(queryTerms, termsOf(phrase)));
  const title = chunk.title !== undefined && titleMatches(queryTerms, termsOf(chunk.title)) ? chunk.title : undefined;
  const domain =
    meta.domain !== undefined && containsPhrase(queryTerms, termsOf(meta.domain)) ? meta.domain : undefined;
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
  return (
    match.title !== undefined ||
    match.domain !== undefined ||
    match.keywords.length + match.aliases.length + match.entities.length > 0
  );
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

/** In how many domains the corpus mentions a phrase (all its terms in one chunk, body included). */
export type PhraseSpread = (phrase: string) => number;

/** A {@link PhraseSpread} that counts only the chunks a filter admits (a lookup's access scope), when given one. */
export type ScopedPhraseSpread = (
  phrase: string,
  filter?: { readonly key: string; readonly admitted: Uint8Array },
) => number;

/** The common entries of two ascending lists. */
function intersectSorted(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) {
      out.push(a[i]);
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return out;
}

/** Phrases whose spread is remembered per filter; past it, that filter's memo starts again. */
const MAX_SCOPED_SPREADS = 4096;

/**
 * Counts, per phrase, the distinct domains of the chunks that contain all of its terms (only of
 * the chunks `filter` admits, when given: a hidden document never changes what a scope is told);
 * memoised, per filter. `documentsWith` lists the chunks containing a term, ascending (the BM25 postings).
 */
export function createPhraseSpread(
  chunks: readonly Chunk[],
  termsOf: PhraseTerms,
  documentsWith: (term: string) => ArrayLike<number>,
): ScopedPhraseSpread {
  const cache = new Map<string, number>();
  const scoped = new WeakMap<object, Map<string, number>>();
  return (phrase, filter) => {
    let memo = cache;
    if (filter !== undefined) {
      memo = scoped.get(filter) ?? new Map<string, number>();
      if (memo.size >= MAX_SCOPED_SPREADS) memo.clear();
      scoped.set(filter, memo);
    }
    let spread = memo.get(phrase);
    if (spread !== undefined) return spread;
    const [first, ...rest] = termsOf(phrase);
    const domains = new Set<string>();
    if (first !== undefined) {
      let ids: ArrayLike<number> = documentsWith(first);
      for (const term of rest) ids = intersectSorted(ids, documentsWith(term));
      for (let i = 0; i < ids.length; i++)
        if (filter === undefined || filter.admitted[ids[i]] === 1) domains.add(chunks[ids[i]].meta.domain ?? "");
    }
    memo.set(phrase, (spread = domains.size));
    return spread;
  };
}

/**
 * How strongly one chunk's short-field matches point at its domain, summed over the matches: 2
 * for a title, alias or domain-name match and for a keyword or entity that only its own domain
 * mentions; 1 for one that other domains mention too (a generic "payments", a system every
 * domain talks about). Reported as `domainEvidence[].strength`; it never decides `domains`.
 */
export function hintStrength(match: HintMatch, spread: PhraseSpread): number {
  const strong = (match.title !== undefined ? 2 : 0) + (match.domain !== undefined ? 2 : 0) + match.aliases.length * 2;
  return (
    strong + [...match.keywords, ...match.entities].reduce((sum, phrase) => sum + (spread(phrase) <= 1 ? 2 : 1), 0)
  );
}

/** One entry of `L0Hints.domainEvidence`. */
export type DomainEvidence = NonNullable<L0Hints["domainEvidence"]>[number];

/**
 * Folds per-chunk matches into the hint data of a lookup. Titles, keywords and entities list
 * every short-field match; `domains` lists the domain of every file with any match (trimmed,
 * blank ones left out, sorted), however weak, so that a keyword two domains share names both and
 * leaves L1 unfiltered. `domainEvidence` says, per domain, how many files matched and how
 * strongly ({@link hintStrength}).
 */
export function collectHints(matches: readonly { chunk: Chunk; match: HintMatch }[], spread: PhraseSpread): L0Hints {
  const titles = new Set<string>();
  const keywords = new Set<string>();
  const entities = new Set<string>();
  const strengthByFile = new Map<string, { domain: string; strength: number }>();
  for (const { chunk, match } of matches) {
    if (!hasHint(match)) continue;
    if (match.title !== undefined || match.aliases.length > 0) titles.add(chunk.title ?? chunk.file);
    match.keywords.forEach((keyword) => keywords.add(keyword));
    match.entities.forEach((entity) => entities.add(entity));
    const strength = hintStrength(match, spread);
    const seen = strengthByFile.get(chunk.file);
    // Chunks of one file share its frontmatter: count the file's best chunk, not every chunk.
    if (!seen || seen.strength < strength)
      strengthByFile.set(chunk.file, { domain: chunk.meta.domain?.trim() ?? "", strength });
  }
  const byDomain = new Map<string, DomainEvidence>();
  for (const { domain, strength } of strengthByFile.values()) {
    if (domain.length === 0) continue;
    const evidence = byDomain.get(domain);
    if (evidence) {
      evidence.files++;
      evidence.strength = Math.max(evidence.strength, strength);
    } else byDomain.set(domain, { domain, strength, files: 1 });
  }
  const domainEvidence = [...byDomain.values()].sort((a, b) =>
    a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0,
  );
  return {
    titles: [...titles],
    keywords: [...keywords],
    domains: domainEvidence.map(({ domain }) => domain),
    entities: [...entities],
    domainEvidence,
  };
}
