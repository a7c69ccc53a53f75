/** Folding trace lines into a {@link TraceSummary} (pure, bounded memory). */
import { BoundedCounter } from "./bounded-counter.js";
import { LatencySample } from "./latency-sample.js";
import { asQueryCounts, type DomainFilterUse, type LineCounts, type TraceSummary } from "./trace-summary.js";
import { escapeControls, shownQuery } from "./untrusted-text.js";

/** Options of {@link createTraceSummarizer}. */
export interface TraceSummaryOptions {
  /** Only records that started at or after this epoch millisecond. @default null (every record) */
  since?: number | null;
  /** Queries listed per list. @default 10 */
  top?: number;
}

type Json = Record<string, unknown>;
const objectOf = (value: unknown): Json | null =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : null;
const labelOf = (value: unknown, fallback: string): string =>
  typeof value === "string" && value.length > 0 ? escapeControls(value.slice(0, 200)) : fallback;
const STAGES = ["l0", "embed", "l1", "merge", "total"] as const;
const COUNTED = [
  "status",
  "toolName",
  "errorType",
  "retrievalLayer",
  "fallbackReason",
  "relevanceLevel",
  "l1Status",
] as const;

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/** Parses one line as a JSON object, or null. */
function parseLine(line: string): Json | null {
  const text = line.endsWith("\r") ? line.slice(0, -1) : line;
  if (text.trim() === "") return null;
  try {
    return objectOf(JSON.parse(text));
  } catch {
    return null;
  }
}

/**
 * A fold over the lines of a trace file: feed every whole line to `addLine` (and say whether
 * the file ended inside a line with `addPartialLine`), then read `summary()`. Memory is bounded
 * whatever the number of lines (see `LatencySample` and `BoundedCounter`).
 */
export function createTraceSummarizer({ since = null, top = 10 }: TraceSummaryOptions = {}) {
  const lines: LineCounts = {
    read: 0,
    records: 0,
    skipped: 0,
    partialLastLine: false,
    otherRecords: 0,
    outsideWindow: 0,
  };
  // Prototype-less, so that a label such as "__proto__" or "constructor" is a key like any other.
  const counts = Object.fromEntries(
    COUNTED.map((name) => [name, Object.create(null) as Record<string, number>]),
  ) as Record<(typeof COUNTED)[number], Record<string, number>>;
  const duration = new LatencySample();
  const stages = new Map<string, LatencySample>(STAGES.map((stage) => [stage, new LatencySample()]));
  const filter = { forced: 0, hinted: 0, unfiltered: 0 };
  const domains = new Map<string, DomainFilterUse>();
  const noEvidence = new BoundedCounter();
  const lowRelevance = new BoundedCounter();
  let domainsApproximate = false;
  let first: number | null = null;
  let last: number | null = null;

  function addDetails(record: Json, details: Json): void {
    const l1 = objectOf(details.l1) ?? {};
    const relevance = objectOf(details.relevance) ?? {};
    bump(counts.retrievalLayer, labelOf(details.retrieval_layer, "unknown"));
    bump(
      counts.fallbackReason,
      details.fallback_reason === null ? "none" : labelOf(details.fallback_reason, "unknown"),
    );
    bump(counts.relevanceLevel, labelOf(relevance.level, "unknown"));
    bump(counts.l1Status, labelOf(l1.status, "unknown"));
    const forcedDomain = objectOf(record.input)?.domain;
    const filterDomain =
      typeof l1.domain_filter === "string" && l1.domain_filter.length > 0 ? labelOf(l1.domain_filter, "") : null;
    if (filterDomain === null) filter.unfiltered++;
    else {
      const forced = typeof forcedDomain === "string" && forcedDomain.trim().length > 0;
      filter[forced ? "forced" : "hinted"]++;
      let use = domains.get(filterDomain);
      if (use === undefined && domains.size >= 10_000) domainsApproximate = true;
      else {
        use ??= { domain: filterDomain, total: 0, forced: 0, hinted: 0 };
        domains.set(filterDomain, use);
        use.total++;
        use[forced ? "forced" : "hinted"]++;
      }
    }
    const query = objectOf(record.input)?.query;
    if (typeof query !== "string") return;
    if (details.evidence_count === 0) noEvidence.add(shownQuery(query));
    else if (relevance.level === "low" || relevance.level === "none") lowRelevance.add(shownQuery(query));
  }

  function addRecord(record: Json): void {
    const started = typeof record.started_at === "string" ? Date.parse(record.started_at) : Number.NaN;
    if (since !== null && !(started >= since)) {
      lines.outsideWindow++;
      return;
    }
    lines.records++;
    if (Number.isFinite(started)) {
      first = first === null ? started : Math.min(first, started);
      last = last === null ? started : Math.max(last, started);
    }
    const status = record.status === "success" || record.status === "error" ? record.status : "unknown";
    bump(counts.status, status);
    bump(counts.toolName, labelOf(record.tool_name, "unknown"));
    if (status === "error") bump(counts.errorType, labelOf(record.error_type, "unknown"));
    duration.add(record.duration_ms);
    const stageDurations = objectOf(record.durations_ms);
    if (stageDurations) for (const [stage, sample] of stages) sample.add(stageDurations[stage]);
    const details = objectOf(record.retrieval_details);
    if (status === "success" && details) addDetails(record, details);
  }

  return {
    /** One whole line of the file (its newline removed). */
    addLine(line: string): void {
      lines.read++;
      const record = parseLine(line);
      if (record === null) lines.skipped++;
      else if (record.type !== "tool_invocation") lines.otherRecords++;
      else addRecord(record);
    },
    /** A line skipped without being parsed: the file's unterminated last line, or a line over the length bound. */
    skipLine(partialLastLine: boolean): void {
      lines.read++;
      lines.skipped++;
      if (partialLastLine) lines.partialLastLine = true;
    },
    /** The summary of every line added so far. */
    summary(): TraceSummary {
      const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
      return {
        lines: { ...lines },
        since: since === null ? null : iso(since),
        firstStartedAt: iso(first),
        lastStartedAt: iso(last),
        ...structuredClone(counts),
        latencyMs: {
          duration: duration.percentiles(),
          stages: Object.fromEntries(
            [...stages].map(([name, s]) => [name, s.percentiles()] as const).filter(([, p]) => p.count > 0),
          ),
        },
        domainFilter: {
          ...filter,
          domains: [...domains.values()]
            .map((use) => ({ ...use }))
            .sort((a, b) => b.total - a.total || (a.domain < b.domain ? -1 : 1)),
        },
        noEvidenceQueries: asQueryCounts(noEvidence.top(top)),
        lowRelevanceQueries: asQueryCounts(lowRelevance.top(top)),
        countsApproximate: noEvidence.approximate || lowRelevance.approximate || domainsApproximate,
      };
    },
  };
}

/** The summary of `lines` (each a whole line of a trace file): {@link createTraceSummarizer} over an in-memory list. */
export function summarizeTraceLines(
  lines: Iterable<string>,
  options: TraceSummaryOptions & { partialLastLine?: string } = {},
): TraceSummary {
  const summarizer = createTraceSummarizer(options);
  for (const line of lines) summarizer.addLine(line);
  if (options.partialLastLine !== undefined) summarizer.skipLine(true);
  return summarizer.summary();
}
