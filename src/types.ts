/** Which retrieval layer produced a piece of evidence. */
export type EvidenceLayer = "L0" | "L1" | "L0+L1";

/** Which layers contributed candidates to a lookup; `none` when nothing matched. */
export type RetrievalLayer = EvidenceLayer | "none";

/** What happened to the dense (L1) search in one lookup. */
export type L1Status = "ok" | "empty" | "error" | "disabled" | "unavailable";

/** Why the answer was built from L0 evidence alone; `null` when L1 answered. */
export type FallbackReason = null | "l1_empty" | "l1_error" | "l1_disabled" | "l1_unavailable";

/** Frontmatter of a knowledge-base document, normalised (aliases `category` and `tags` folded in). */
export interface DocumentMeta {
  /** Frontmatter `title`, trimmed; absent when the file has none. */
  title?: string;
  /** Frontmatter `domain` (or `category`), trimmed and lower-cased; absent when blank or missing. */
  domain?: string;
  /**
   * Frontmatter `keywords` (or `tags`), a list or a comma-separated string: trimmed, unique, blanks
   * left out; empty when absent.
   */
  keywords: string[];
  /**
   * Frontmatter `entities` (named things the document is about, e.g. `Vault`), read as `keywords`
   * is; empty when absent.
   */
  entities: string[];
  /** Frontmatter `aliases` (other names of the document), read as `keywords` is; empty when absent. */
  aliases: string[];
  /**
   * Groups allowed to read the document (frontmatter `access`, trimmed, unique); absent when the
   * file has no `access` field, which the knowledge base's `unlabelled` policy then decides. An
   * empty list is a label no scope matches: nobody reads the file.
   */
  access?: string[];
}

/** One retrievable unit: a section of a Markdown file, or one row of a BEIR corpus. */
export interface Chunk {
  /** Stable identity: `<path relative to the corpus folder>#<heading slug>` (or a dataset's document id). */
  source: string;
  /** Path of the file relative to the corpus folder (or the dataset document id). */
  file: string;
  /** The document's title (`meta.title`), the same for every chunk of the file; absent when it has none. */
  title?: string;
  /** Heading path from the document title down to this section. */
  breadcrumb: string[];
  /** Section text, Markdown as written. */
  content: string;
  /** The file's frontmatter, normalised; every chunk of a file shares it. */
  meta: DocumentMeta;
}

/** One block of evidence returned by `lookup_knowledge`. */
export interface EvidenceBlock {
  /**
   * The chunk's stable id (`Chunk.source`, `<file>#<heading slug>`): what to cite, and what
   * evidence is deduplicated by.
   */
  source: string;
  /** The document's title (`Chunk.title`), cut to 200 characters; absent when it has none. */
  title?: string;
  /**
   * The chunk's heading path (`Chunk.breadcrumb`), each heading cut to 200 characters; absent when
   * the path is empty.
   */
  breadcrumb?: string[];
  /** The domain of the block's document (frontmatter `domain` or `category`), when it has one. */
  domain?: string;
  /** Which layers found the block: `L0+L1` when both did. */
  retrievalLayer: EvidenceLayer;
  /** The section text (Markdown as written), cut to the evidence caps when `truncated` is present. */
  content: string;
  /** Why this block was found, each prefixed by its layer: `L0:keyword:refund`, `L1:similarity:0.82`. */
  hitReasons: string[];
  /**
   * Rank score of this lookup: each layer's scores min-max normalised over its own candidates,
   * then fused by weight, so 1 is the best candidate of the lookup and 0 the weakest one kept.
   * It orders the blocks; it says nothing about relevance across lookups: read `termCoverage`,
   * `similarity` and the lookup's `relevance` for that.
   */
  score?: number;
  /** IDF-weighted share of the query's terms this block holds, from 0 to 1. */
  termCoverage?: number;
  /** L1's cosine similarity to the query, when the dense layer returned this block. */
  similarity?: number;
  /** Present when `content` was cut to the evidence caps: how much is shown of how much. */
  truncated?: { shownChars: number; totalChars: number };
}

/** Hints from the L0 keyword layer: which short fields the query matched. */
export interface L0Hints {
  /** Titles of the files whose title or an alias the query matched (a file without a title by its path); unique. */
  titles: string[];
  /** Frontmatter keywords the query holds as whole phrases (every term of `access review`), unique. */
  keywords: string[];
  /**
   * The domain of every file whose title, keyword, alias, entity or domain name the query
   * matched: trimmed, blank ones left out, sorted, unique. Exactly one → L1 is filtered by it;
   * zero or several → L1 searches every domain.
   */
  domains: string[];
  /** Frontmatter entities the query holds as whole phrases, unique. */
  entities: string[];
  /**
   * How much matched in each of {@link domains} (same order): `files` is how many of the domain's
   * files matched, `strength` the best file's hint strength (2 or more for a title, alias or
   * domain-name match or a phrase only this domain mentions, 1 for a single phrase other domains
   * mention too). Additional data only: it never removes a domain from `domains`. Set by L0;
   * absent in hints built by hand.
   */
  domainEvidence?: { domain: string; strength: number; files: number }[];
}

/** How much the returned evidence can be trusted to answer the query. */
export interface RelevanceAssessment {
  /**
   * `high`: use the top block, citing its source; `medium`: it plausibly answers, check it against
   * the question; `low`: no more matched than unrelated blocks reach; `none`: nothing matched.
   */
  level: "high" | "medium" | "low" | "none";
  /** True only when the dense layer found the top evidence too. */
  semanticSupport: boolean;
  /**
   * Why, in one sentence: the top block's share of the query's term weight and its similarity (or
   * why none counted); the tool's text shows it to the model.
   */
  reason: string;
}

/**
 * How long the stages of one lookup took, in milliseconds (differences of `performance.now()`):
 * each is finite and at least 0.
 */
export interface LookupTimings {
  /** The L0 node: the input check, the keyword search and the hints. */
  l0Ms: number;
  /**
   * The L1 node's query embedding (embedded and checked), 0 when L1 did not embed (disabled,
   * unavailable, failed before the vector was ready) or its searcher does not report the moment
   * (`L1SearchOptions.onQueryEmbedded`).
   */
  embedMs: number;
  /**
   * The L1 node without the query embedding: the nearest-neighbour search (HNSW or the vector
   * store) and mapping hits to candidates; the whole call when the searcher does not report the
   * embedding apart. `embedMs + l1Ms` is the whole L1 node. Near 0 when L1 is disabled or unavailable.
   */
  l1Ms: number;
  /** Turning candidates into evidence, deduping and fusing it, judging relevance and capping the evidence. */
  mergeMs: number;
  /** Building the trace record and appending it, waiting for appends queued before it included; 0 when tracing is off. */
  traceMs: number;
  /**
   * From the start of the graph run to the end of the final node, trace included: the stages
   * plus LangGraph's scheduling between them. When a parent graph shares the subgraph's state
   * channels, it counts from the parent run's start.
   */
  totalMs: number;
}

/** The structured result of one lookup: the tool's artifact. */
export interface LookupResult {
  /** Names this lookup (a random UUID unless the graph's input sets one); its trace line's `invocation_id`. */
  invocationId: string;
  /** The query as the lookup received it. */
  query: string;
  /** Which layers contributed candidates; L1 counts only when it answered (`l1Status` `ok`). */
  retrievalLayer: RetrievalLayer;
  /** What L0's short fields matched, each list cut to 20 entries of at most 200 characters. */
  hints: L0Hints;
  /** The domain L1 searched in: the forced `domain`, else the one domain the hints named; null for every domain. */
  domainFilter: string | null;
  /** What happened to the dense search. */
  l1Status: L1Status;
  /** Why the evidence comes from L0 alone; null when L1 answered. */
  fallbackReason: FallbackReason;
  /** How far the top block can be trusted to answer the query. */
  relevance: RelevanceAssessment;
  /** The evidence blocks, best first, at most the lookup's `limit`, their contents cut to the evidence caps. */
  evidence: EvidenceBlock[];
  /** The first block of `evidence`; null when there is none. */
  primary: EvidenceBlock | null;
  /** The blocks of `evidence` after `primary`. */
  supplements: EvidenceBlock[];
  /** Distinct sources among the candidates the evidence was drawn from: L0's, and L1's when L1 answered. */
  candidateCount: number;
  /** How many blocks `evidence` holds. */
  evidenceCount: number;
  /** True when the content of at least one block was cut to the evidence caps. */
  contentTruncated: boolean;
  /** True when the lookup's trace line was written whole; false when tracing is off or the append failed. */
  traceWritten: boolean;
  /**
   * The access scope the lookup ran under (from the trusted `access` option, never from the
   * model's arguments): the caller's groups, sorted and unique, and their digest; null for an
   * unscoped lookup, which reads every document. Absent in results built by hand.
   */
  access?: AppliedScope | null;
  /** How long each stage took; set by the retrieval graph on every lookup (absent only in results built by hand). */
  timings?: LookupTimings;
}

/** A file the corpus loader did not index, and why. */
export interface SkippedFile {
  /** Path of the file relative to the corpus folder. */
  file: string;
  /** Why it was not indexed, in one line of at most 300 characters (e.g. `invalid UTF-8: save the file as UTF-8`). */
  reason: string;
}

/** A chunk found by one layer, before evidence is merged. */
export interface Candidate {
  /** Chunk number inside the knowledge base. */
  id: number;
  /** The chunk itself. */
  chunk: Chunk;
  /** The layer's own score: BM25 for L0, cosine similarity for L1. */
  score: number;
  /** Why the layer found it, each prefixed by the layer (`L0:keyword:refund`, `L1:similarity:0.82`). */
  hitReasons: string[];
  /** IDF-weighted share of the query's terms that the chunk contains, from 0 to 1. */
  coverage?: number;
}

/** A scope checked and normalised: its groups sorted and unique, and a digest that names it in traces and caches. */
export interface AppliedScope {
  /** The caller's groups, sorted and unique. */
  readonly groups: readonly string[];
  /** First 16 hex digits of the SHA-256 of the sorted groups (JSON). */
  readonly digest: string;
}
