/**
 * Fakes of our own narrow retrieval interfaces, for unit tests that must not touch FlexSearch,
 * hnswlib or the embedder. Each fake records how it was called so tests can assert on it.
 */
import type { RetrievalSource } from "../../src/graph/options.js";
import type { L0Result, L0SearchOptions, L0Searcher } from "../../src/l0/l0-search.js";
import type { L1SearchOptions, L1Searcher } from "../../src/l1/l1-search.js";
import type { TraceSink } from "../../src/trace/jsonl-trace-sink.js";
import type { Candidate, Chunk, DocumentMeta, L0Hints } from "../../src/types.js";

/** Hints with nothing matched. */
export const NO_HINTS: L0Hints = { titles: [], keywords: [], domains: [], entities: [] };

/** Builds hints, every list empty unless given. */
export function hints(partial: Partial<L0Hints> = {}): L0Hints {
  return { ...NO_HINTS, ...partial };
}

/** Builds a chunk whose file is the part of `source` before `#`. */
export function makeChunk(
  source: string,
  fields: { title?: string; breadcrumb?: string[]; content?: string; meta?: Partial<DocumentMeta> } = {},
): Chunk {
  const meta: DocumentMeta = { keywords: [], entities: [], aliases: [], ...fields.meta };
  return {
    source,
    file: source.split("#")[0],
    ...(fields.title !== undefined ? { title: fields.title } : {}),
    breadcrumb: fields.breadcrumb ?? (fields.title !== undefined ? [fields.title] : []),
    content: fields.content ?? `Content of ${source}.`,
    meta,
  };
}

let nextCandidateId = 0;

/** Builds a candidate for a chunk (or for a fresh chunk of that source). */
/** A billing section, shared by the graph and tool tests. */
export const REFUND_CHUNK = makeChunk("billing/refunds.md#refund-window", {
  title: "Refunds",
  breadcrumb: ["Refunds", "Refund window"],
  content: "Refunds are accepted within 30 days of purchase.",
  meta: { domain: "billing" },
});

/** An access-management section in another domain. */
export const ACCESS_CHUNK = makeChunk("it/access.md#request-access", {
  title: "Access requests",
  breadcrumb: ["Access requests", "Request access"],
  content: "File an access request in the portal.",
  meta: { domain: "it" },
});

export function makeCandidate(
  chunkOrSource: Chunk | string,
  score: number,
  extra: { hitReasons?: string[]; coverage?: number; id?: number } = {},
): Candidate {
  const chunk = typeof chunkOrSource === "string" ? makeChunk(chunkOrSource) : chunkOrSource;
  return {
    id: extra.id ?? nextCandidateId++,
    chunk,
    score,
    hitReasons: extra.hitReasons ?? [],
    ...(extra.coverage !== undefined ? { coverage: extra.coverage } : {}),
  };
}

/** An L0 layer that answers with a fixed result and records every call. */
export class FakeL0Searcher implements L0Searcher {
  readonly calls: { query: string; options: L0SearchOptions }[] = [];

  constructor(private readonly answer: L0Result = { hints: NO_HINTS, candidates: [] }) {}

  search(query: string, options: L0SearchOptions): L0Result {
    this.calls.push({ query, options: { ...options } });
    return { hints: this.answer.hints, candidates: this.answer.candidates.slice(0, options.limit) };
  }
}

/** An L1 layer that answers with fixed candidates (or throws `error`) and records every call. */
export class FakeL1Searcher implements L1Searcher {
  readonly calls: { query: string; options: L1SearchOptions }[] = [];

  constructor(private readonly answer: Candidate[] | Error = []) {}

  async search(query: string, options: L1SearchOptions): Promise<Candidate[]> {
    this.calls.push({ query, options: { ...options } });
    if (this.answer instanceof Error) throw this.answer;
    return this.answer.slice(0, options.k);
  }
}

/** A trace sink that keeps every record in memory and answers `writes` to each append. */
export class RecordingTraceSink implements TraceSink {
  readonly records: Record<string, unknown>[] = [];

  constructor(private readonly writes = true) {}

  async append(record: object): Promise<boolean> {
    // Round-trip through JSON so tests see exactly what a JSONL line would hold.
    this.records.push(JSON.parse(JSON.stringify(record)) as Record<string, unknown>);
    return this.writes;
  }
}

/** A trace sink that breaks its contract and rejects every append. */
export class RejectingTraceSink implements TraceSink {
  appends = 0;

  async append(): Promise<boolean> {
    this.appends++;
    throw new Error("trace disk is full");
  }
}

/** A knowledge base made of fakes. */
export function fakeSource(
  parts: { l0?: L0Searcher; l1?: L1Searcher | null; domains?: readonly string[]; fingerprint?: string } = {},
): RetrievalSource {
  return {
    l0: parts.l0 ?? new FakeL0Searcher(),
    l1: parts.l1 === undefined ? new FakeL1Searcher() : parts.l1,
    fingerprint: parts.fingerprint ?? "fp-test",
    ...(parts.domains !== undefined ? { domains: parts.domains } : {}),
  };
}
