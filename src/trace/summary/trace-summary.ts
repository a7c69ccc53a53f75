/** What `traces summary` reports about a trace file. */
import type { KeyCount } from "./bounded-counter.js";
import type { LatencyPercentiles } from "./latency-sample.js";

/** How many lines of the file were what. */
export interface LineCounts {
  /** Lines read, the partial last line included. */
  read: number;
  /** `tool_invocation` records summarised (inside the `--since` window). */
  records: number;
  /** Lines that were not a JSON object: malformed, blank, over-long, or the partial last line. */
  skipped: number;
  /** True when the file did not end with a newline: its last line (a write in progress, or cut short) was skipped. */
  partialLastLine: boolean;
  /** JSON objects that are not `tool_invocation` records (other record types), left out. */
  otherRecords: number;
  /** Records started before `--since` (or with no readable `started_at` when `--since` is given), left out. */
  outsideWindow: number;
}

/** Use of one domain as the L1 filter. */
export interface DomainFilterUse {
  /** The filter domain, as the records' `l1.domain_filter` has it (controls escaped, cut to 200 characters). */
  domain: string;
  /** Lookups filtered by it. */
  total: number;
  /** ...because the caller forced it (`input.domain`). */
  forced: number;
  /** ...because the L0 hints chose it (no `input.domain`). */
  hinted: number;
}

/** A query text (whitespace collapsed, cut, controls escaped) and how many lookups asked it. */
export type QueryCount = { query: string; count: number };

/** The summary of a trace file (pure data; JSON as it is under `--json`). */
export interface TraceSummary {
  /** How many lines of the file were what. */
  lines: LineCounts;
  /** `--since` in effect, as an ISO instant; null when every record counts. */
  since: string | null;
  /** Earliest `started_at` of the records summarised (ISO 8601); null when none has one. */
  firstStartedAt: string | null;
  /** Latest `started_at` of the records summarised (ISO 8601); null when none has one. */
  lastStartedAt: string | null;
  /** Records by `status` (`success`, `error`, or `unknown` for a stub line that lost it). */
  status: Record<string, number>;
  /** Records by `tool_name`. */
  toolName: Record<string, number>;
  /** Error records by `error_type` (`unknown` for records written before it existed). */
  errorType: Record<string, number>;
  /** Success records by `retrieval_details.retrieval_layer`. */
  retrievalLayer: Record<string, number>;
  /** Success records by `fallback_reason` (`none` when L1 answered). */
  fallbackReason: Record<string, number>;
  /** Success records by `relevance.level`. */
  relevanceLevel: Record<string, number>;
  /** Success records by `l1.status`. */
  l1Status: Record<string, number>;
  /** Latency percentiles in milliseconds, of the whole lookup and of each stage. */
  latencyMs: {
    /** `duration_ms` of every record. */
    duration: LatencyPercentiles;
    /** `durations_ms.<stage>` of the records that have it (`l0`, `embed`, `l1`, `merge`, `total`). */
    stages: Record<string, LatencyPercentiles>;
  };
  /** How the success records' L1 searches were filtered by domain. */
  domainFilter: {
    /** Success records with an L1 domain filter the caller forced. */
    forced: number;
    /** ...with one the L0 hints chose. */
    hinted: number;
    /** ...searching every domain. */
    unfiltered: number;
    /** Per filter domain, most used first. */
    domains: DomainFilterUse[];
  };
  /** The queries asked most often that got no evidence at all (`evidence_count` 0). */
  noEvidenceQueries: QueryCount[];
  /** The queries asked most often whose evidence was judged `low` or `none`. */
  lowRelevanceQueries: QueryCount[];
  /** True when the query lists or the domain list come from more distinct keys than are kept: their rarest keys were dropped. */
  countsApproximate: boolean;
}

/** Converts counter output to the summary's query lists. */
export const asQueryCounts = (counts: KeyCount[]): QueryCount[] =>
  counts.map(({ key, count }) => ({ query: key, count }));
