import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RetrievalOptions } from "../../src/graph/options.js";
import { createRetrievalGraph } from "../../src/graph/retrieval-graph.js";
import type { L0Result } from "../../src/l0/l0-search.js";
import type { Candidate, LookupResult } from "../../src/types.js";
import {
  ACCESS_CHUNK,
  FakeL0Searcher,
  FakeL1Searcher,
  NO_HINTS,
  REFUND_CHUNK,
  RecordingTraceSink,
  fakeSource,
  hints,
  makeCandidate,
  makeChunk,
} from "../helpers/retrieval-fakes.js";

const REFUND = REFUND_CHUNK;
const ACCESS = ACCESS_CHUNK;
const ONBOARDING = makeChunk("hr/onboarding.md#first-day", {
  title: "Onboarding",
  content: "Bring your ID on the first day.",
});

function l0With(candidates: Candidate[], h = NO_HINTS): FakeL0Searcher {
  const answer: L0Result = { hints: h, candidates };
  return new FakeL0Searcher(answer);
}

async function lookup(
  options: Omit<RetrievalOptions, "tracePath"> & { tracePath?: string | null },
  input: { query: string; domain?: string | null; limit?: number },
): Promise<LookupResult> {
  const graph = createRetrievalGraph({ tracePath: null, ...options });
  const { result } = await graph.invoke(input);
  if (result === null) throw new Error("the graph finished without a result");
  return result;
}

describe("createRetrievalGraph: L0 is a hint provider, not an answerer", () => {
  it("still runs L1 when L0 returns exactly one match", async () => {
    const l0 = l0With(
      [makeCandidate(REFUND, 3, { hitReasons: ["L0:title:Refunds"], coverage: 1 })],
      hints({ titles: ["Refunds"] }),
    );
    const l1 = new FakeL1Searcher([makeCandidate(REFUND, 0.8, { hitReasons: ["L1:similarity:0.80"] })]);

    const result = await lookup({ knowledgeBase: fakeSource({ l0, l1 }) }, { query: "refund window" });

    expect(l0.calls).toHaveLength(1);
    expect(l1.calls).toEqual([{ query: "refund window", options: expect.objectContaining({ domain: null }) }]);
    expect(result.l1Status).toBe("ok");
    expect(result.fallbackReason).toBeNull();
    expect(result.retrievalLayer).toBe("L0+L1");
  });

  it("does not call L1 when it is disabled by configuration and says so", async () => {
    const l0 = l0With([makeCandidate(REFUND, 3, { coverage: 1 })]);
    const l1 = new FakeL1Searcher([makeCandidate(REFUND, 0.8)]);

    const result = await lookup(
      { knowledgeBase: fakeSource({ l0, l1 }), l1: { enabled: false } },
      { query: "refund window" },
    );

    expect(l1.calls).toHaveLength(0);
    expect(result.l1Status).toBe("disabled");
    expect(result.fallbackReason).toBe("l1_disabled");
    expect(result.retrievalLayer).toBe("L0");
    expect(result.primary?.source).toBe(REFUND.source);
  });

  it("reports L1 as unavailable when the knowledge base has no dense layer", async () => {
    const l0 = l0With([makeCandidate(REFUND, 3, { coverage: 1 })]);

    const result = await lookup({ knowledgeBase: fakeSource({ l0, l1: null }) }, { query: "refund window" });

    expect(result.l1Status).toBe("unavailable");
    expect(result.fallbackReason).toBe("l1_unavailable");
    expect(result.retrievalLayer).toBe("L0");
    expect(result.primary?.retrievalLayer).toBe("L0");
  });

  it("does not call L0 when it is disabled and answers from L1 alone", async () => {
    const l0 = l0With([makeCandidate(REFUND, 3)], hints({ domains: ["billing"] }));
    const l1 = new FakeL1Searcher([makeCandidate(ACCESS, 0.7)]);

    const result = await lookup({ knowledgeBase: fakeSource({ l0, l1 }), l0: { enabled: false } }, { query: "access" });

    expect(l0.calls).toHaveLength(0);
    expect(l1.calls[0].options.domain).toBeNull();
    expect(result.retrievalLayer).toBe("L1");
    expect(result.hints).toEqual({ ...NO_HINTS, domainEvidence: [] });
  });
});

describe("createRetrievalGraph: the L1 domain filter", () => {
  it("filters L1 by the one domain the hints name and records it as the domain filter", async () => {
    const l0 = l0With([makeCandidate(REFUND, 3)], hints({ domains: ["billing"] }));
    const l1 = new FakeL1Searcher([makeCandidate(REFUND, 0.6)]);

    const result = await lookup({ knowledgeBase: fakeSource({ l0, l1 }) }, { query: "refund" });

    expect(l1.calls[0].options.domain).toBe("billing");
    expect(result.domainFilter).toBe("billing");
  });

  it.each([
    ["no domains", [] as string[]],
    ["two domains", ["billing", "it"]],
    ["a blank domain", ["  "]],
  ])("leaves L1 unfiltered when the hints name %s", async (_label, domains) => {
    const l0 = l0With([makeCandidate(REFUND, 3)], hints({ domains }));
    const l1 = new FakeL1Searcher([makeCandidate(REFUND, 0.6)]);

    const result = await lookup({ knowledgeBase: fakeSource({ l0, l1 }) }, { query: "refund" });

    expect(l1.calls).toHaveLength(1);
    expect(l1.calls[0].options.domain).toBeNull();
    expect(result.domainFilter).toBeNull();
  });

  it("filters L1 by the one hinted domain however weak its evidence", async () => {
    const weak = hints({
      keywords: ["refund"],
      domains: ["billing"],
      domainEvidence: [{ domain: "billing", strength: 1, files: 1 }],
    });
    const l0 = l0With([makeCandidate(REFUND, 3)], weak);
    const l1 = new FakeL1Searcher([makeCandidate(REFUND, 0.6)]);

    const result = await lookup({ knowledgeBase: fakeSource({ l0, l1 }) }, { query: "refund" });

    expect(l1.calls[0].options.domain).toBe("billing");
    expect(result.domainFilter).toBe("billing");
    expect(result.hints.domainEvidence).toEqual([{ domain: "billing", strength: 1, files: 1 }]);
  });

  it("records both hinted domains, their evidence and no L1 filter in the artifact and the trace when the matches span two domains", async () => {
    const domainEvidence = [
      { domain: "billing", strength: 2, files: 1 },
      { domain: "incidents", strength: 2, files: 1 },
    ];
    const l0 = l0With(
      [makeCandidate(REFUND, 3)],
      hints({ keywords: ["refund"], domains: ["billing", "incidents"], domainEvidence }),
    );
    const l1 = new FakeL1Searcher([makeCandidate(REFUND, 0.6)]);
    const sink = new RecordingTraceSink();

    const result = await lookup({ knowledgeBase: fakeSource({ l0, l1 }), traceSink: sink }, { query: "refund" });

    expect(l1.calls[0].options.domain).toBeNull();
    expect(result.domainFilter).toBeNull();
    expect(result.hints.domains).toEqual(["billing", "incidents"]);
    expect(result.hints.domainEvidence).toEqual(domainEvidence);
    expect(sink.records[0]).toMatchObject({
      retrieval_details: {
        l0: { domains: ["billing", "incidents"], domain_evidence: domainEvidence },
        l1: { domain_filter: null },
      },
    });
  });

  it("lets a forced domain win over the hints, trimmed and lower-cased, in both layers", async () => {
    const l0 = l0With([makeCandidate(ACCESS, 3)], hints({ domains: ["billing"] }));
    const l1 = new FakeL1Searcher([makeCandidate(ACCESS, 0.6)]);

    const result = await lookup({ knowledgeBase: fakeSource({ l0, l1 }) }, { query: "refund", domain: "  IT " });

    expect(l0.calls[0].options.domain).toBe("it");
    expect(l1.calls[0].options.domain).toBe("it");
    expect(result.domainFilter).toBe("it");
  });

  it("treats a blank forced domain as no domain", async () => {
    const l0 = l0With([makeCandidate(REFUND, 3)], hints({ domains: ["billing"] }));
    const l1 = new FakeL1Searcher([makeCandidate(REFUND, 0.6)]);

    const result = await lookup({ knowledgeBase: fakeSource({ l0, l1 }) }, { query: "refund", domain: "   " });

    expect(l0.calls[0].options.domain).toBeNull();
    expect(result.domainFilter).toBe("billing");
  });
});

describe("createRetrievalGraph: falling back to L0", () => {
  it("answers from the L0 block when L1 finds nothing", async () => {
    const l0 = l0With([makeCandidate(REFUND, 3, { hitReasons: ["L0:keyword:refund"], coverage: 1 })]);
    const l1 = new FakeL1Searcher([]);

    const result = await lookup({ knowledgeBase: fakeSource({ l0, l1 }) }, { query: "refund" });

    expect(l1.calls).toHaveLength(1);
    expect(result.primary).toMatchObject({ source: REFUND.source, retrievalLayer: "L0" });
    expect(result.retrievalLayer).toBe("L0");
    expect(result.l1Status).toBe("empty");
    expect(result.fallbackReason).toBe("l1_empty");
    expect(result.relevance.semanticSupport).toBe(false);
  });

  it("answers from L0 when L1 throws and keeps both the L0 hints and the L1 error in the trace", async () => {
    const h = hints({ titles: ["Refunds"], keywords: ["refund"], domains: ["billing"], entities: ["Stripe"] });
    const l0 = l0With([makeCandidate(REFUND, 3, { hitReasons: ["L0:title:Refunds"], coverage: 1 })], h);
    const l1 = new FakeL1Searcher(new Error("embeddings service unreachable"));
    const sink = new RecordingTraceSink();

    const result = await lookup({ knowledgeBase: fakeSource({ l0, l1 }), traceSink: sink }, { query: "refund" });

    expect(result.primary).toMatchObject({ source: REFUND.source, retrievalLayer: "L0" });
    expect(result.l1Status).toBe("error");
    expect(result.fallbackReason).toBe("l1_error");
    expect(result.relevance.semanticSupport).toBe(false);
    expect(result.traceWritten).toBe(true);
    expect(sink.records).toHaveLength(1);
    expect(sink.records[0]).toMatchObject({
      status: "success",
      retrieval_details: {
        retrieval_layer: "L0",
        fallback_reason: "l1_error",
        l0: { matched_titles: ["Refunds"], matched_keywords: ["refund"], domains: ["billing"], entities: ["Stripe"] },
        l1: { status: "error", domain_filter: "billing", candidate_count: 0, error: "embeddings service unreachable" },
      },
    });
  });

  it("records no L1 error in the trace when L1 answered", async () => {
    const l0 = l0With([makeCandidate(REFUND, 3)]);
    const sink = new RecordingTraceSink();

    await lookup(
      { knowledgeBase: fakeSource({ l0, l1: new FakeL1Searcher([makeCandidate(REFUND, 0.5)]) }), traceSink: sink },
      { query: "refund" },
    );

    const details = sink.records[0].retrieval_details as { l1: Record<string, unknown> };
    expect(details.l1).not.toHaveProperty("error");
    expect(details.l1.status).toBe("ok");
  });
});

describe("createRetrievalGraph: evidence blocks", () => {
  it("gives every block its source, title, breadcrumb, domain, layer, content, hit reasons, score and term coverage", async () => {
    const l0 = l0With([
      makeCandidate(REFUND, 4, { hitReasons: ["L0:keyword:refund"], coverage: 1 }),
      makeCandidate(ACCESS, 2, { hitReasons: ["L0:body:request"], coverage: 0.5 }),
    ]);

    const result = await lookup(
      { knowledgeBase: fakeSource({ l0, l1: new FakeL1Searcher([]) }) },
      { query: "refund request" },
    );

    expect(result.evidence).toEqual([
      {
        source: REFUND.source,
        title: "Refunds",
        breadcrumb: ["Refunds", "Refund window"],
        domain: "billing",
        retrievalLayer: "L0",
        content: REFUND.content,
        hitReasons: ["L0:keyword:refund"],
        score: 1,
        termCoverage: 1,
      },
      {
        source: ACCESS.source,
        title: "Access requests",
        breadcrumb: ["Access requests", "Request access"],
        domain: "it",
        retrievalLayer: "L0",
        content: ACCESS.content,
        hitReasons: ["L0:body:request"],
        score: 0,
        termCoverage: 0.5,
      },
    ]);
    expect(result.primary).toEqual(result.evidence[0]);
    expect(result.supplements).toEqual(result.evidence.slice(1));
  });

  it("merges an L0 and an L1 candidate of the same source into one L0+L1 block with united hit reasons", async () => {
    const l0 = l0With([makeCandidate(REFUND, 3, { hitReasons: ["L0:keyword:refund", "shared"], coverage: 1 })]);
    const l1 = new FakeL1Searcher([makeCandidate(REFUND, 0.9, { hitReasons: ["L1:similarity:0.90", "shared"] })]);

    const result = await lookup({ knowledgeBase: fakeSource({ l0, l1 }) }, { query: "refund" });

    expect(result.evidence).toHaveLength(1);
    expect(result.primary?.retrievalLayer).toBe("L0+L1");
    expect(result.primary?.hitReasons).toEqual(["L0:keyword:refund", "shared", "L1:similarity:0.90"]);
    expect(result.candidateCount).toBe(1);
  });

  it("publishes a merged block's term coverage from L0 and its similarity from L1", async () => {
    const l0 = l0With([makeCandidate(REFUND, 3, { hitReasons: ["L0:keyword:refund"], coverage: 0.75 })]);
    const l1 = new FakeL1Searcher([makeCandidate(REFUND, 0.912345, { hitReasons: ["L1:similarity:0.91"] })]);

    const result = await lookup({ knowledgeBase: fakeSource({ l0, l1 }) }, { query: "refund" });

    expect(result.primary).toMatchObject({ retrievalLayer: "L0+L1", termCoverage: 0.75, similarity: 0.9123 });
  });

  it("keeps two different sources with identical content as two blocks", async () => {
    const text = "Restart the service, then check the health endpoint.";
    const a = makeChunk("ops/a.md#restart", { content: text });
    const b = makeChunk("ops/b.md#restart", { content: text });
    const l0 = l0With([makeCandidate(a, 2), makeCandidate(b, 2)]);
    const l1 = new FakeL1Searcher([makeCandidate(b, 0.7), makeCandidate(a, 0.7)]);

    const result = await lookup({ knowledgeBase: fakeSource({ l0, l1 }) }, { query: "restart" });

    expect(result.evidence.map((block) => block.source).sort()).toEqual(["ops/a.md#restart", "ops/b.md#restart"]);
    expect(result.evidenceCount).toBe(2);
  });

  it("caps the evidence at the lookup's limit while counting every distinct candidate", async () => {
    const candidates = Array.from({ length: 8 }, (_, i) => makeCandidate(`doc-${i}.md#top`, 10 - i));
    const l0 = l0With(candidates);
    const sink = new RecordingTraceSink();

    const result = await lookup(
      { knowledgeBase: fakeSource({ l0, l1: new FakeL1Searcher([]) }), traceSink: sink },
      { query: "doc", limit: 3 },
    );

    expect(result.evidence.map((block) => block.source)).toEqual(["doc-0.md#top", "doc-1.md#top", "doc-2.md#top"]);
    expect(result.evidenceCount).toBe(3);
    expect(result.supplements).toHaveLength(2);
    expect(result.candidateCount).toBe(8);
    expect(l0.calls[0].options.limit).toBeGreaterThanOrEqual(3);
    expect(sink.records[0]).toMatchObject({
      input: { limit: 3 },
      retrieval_details: { evidence_count: 3, candidate_count: 8 },
    });
  });
});

describe("createRetrievalGraph: retrieval layer and counts", () => {
  it("says L0+L1 and counts the union of both layers' sources when both contributed", async () => {
    const l0 = l0With([makeCandidate(REFUND, 3), makeCandidate(ACCESS, 1)]);
    const l1 = new FakeL1Searcher([makeCandidate(ACCESS, 0.8), makeCandidate(ONBOARDING, 0.4)]);
    const sink = new RecordingTraceSink();

    const result = await lookup({ knowledgeBase: fakeSource({ l0, l1 }), traceSink: sink }, { query: "q" });

    expect(result.retrievalLayer).toBe("L0+L1");
    expect(result.candidateCount).toBe(3);
    expect(result.evidenceCount).toBe(3);
    expect(sink.records[0]).toMatchObject({
      retrieval_details: {
        retrieval_layer: "L0+L1",
        candidate_count: 3,
        evidence_count: 3,
        l1: { candidate_count: 2 },
      },
    });
  });

  it("says L1 when only the dense layer found something", async () => {
    const l1 = new FakeL1Searcher([makeCandidate(ONBOARDING, 0.5)]);

    const result = await lookup({ knowledgeBase: fakeSource({ l1 }) }, { query: "first day" });

    expect(result.retrievalLayer).toBe("L1");
    expect(result.fallbackReason).toBeNull();
    expect(result.primary?.retrievalLayer).toBe("L1");
  });

  it("says none, with no primary and relevance none, when nothing matched", async () => {
    const sink = new RecordingTraceSink();

    const result = await lookup(
      { knowledgeBase: fakeSource({ l1: new FakeL1Searcher([]) }), traceSink: sink },
      { query: "zebra migration" },
    );

    expect(result.retrievalLayer).toBe("none");
    expect(result.relevance.level).toBe("none");
    expect(result.primary).toBeNull();
    expect(result.supplements).toEqual([]);
    expect(result.candidateCount).toBe(0);
    expect(result.evidenceCount).toBe(0);
    expect(sink.records[0]).toMatchObject({
      retrieval_details: { retrieval_layer: "none", candidate_count: 0, evidence_count: 0, evidence: [] },
    });
  });

  it("reports high relevance with semantic support when both layers found the top block strongly", async () => {
    const l0 = l0With([makeCandidate(REFUND, 3, { coverage: 1 })]);
    const l1 = new FakeL1Searcher([makeCandidate(REFUND, 0.85)]);

    const result = await lookup({ knowledgeBase: fakeSource({ l0, l1 }) }, { query: "refund window" });

    expect(result.relevance).toMatchObject({ level: "high", semanticSupport: true });
  });

  it("writes no trace and reports traceWritten false when tracing is off", async () => {
    const result = await lookup(
      { knowledgeBase: fakeSource({ l0: l0With([makeCandidate(REFUND, 1)]) }), tracePath: null },
      { query: "refund" },
    );

    expect(result.traceWritten).toBe(false);
  });
});

function expectDuration(value: unknown): void {
  expect(typeof value).toBe("number");
  expect(Number.isFinite(value)).toBe(true);
  expect(value as number).toBeGreaterThanOrEqual(0);
}

describe("createRetrievalGraph: stage timings", () => {
  it("reports how long each stage took as a finite, non-negative number of milliseconds", async () => {
    const l0 = l0With([makeCandidate(REFUND, 3, { coverage: 1 })]);
    const l1 = new FakeL1Searcher([makeCandidate(REFUND, 0.8)]);

    const result = await lookup(
      { knowledgeBase: fakeSource({ l0, l1 }), traceSink: new RecordingTraceSink() },
      { query: "refund" },
    );

    expect(Object.keys(result.timings ?? {}).sort()).toEqual([
      "embedMs",
      "l0Ms",
      "l1Ms",
      "mergeMs",
      "totalMs",
      "traceMs",
    ]);
    for (const value of Object.values(result.timings ?? {})) expectDuration(value);
  });

  it("counts every stage, the trace included, inside the total", async () => {
    const result = await lookup(
      { knowledgeBase: fakeSource({ l0: l0With([makeCandidate(REFUND, 3)]) }), traceSink: new RecordingTraceSink() },
      { query: "refund" },
    );
    const { l0Ms = 0, embedMs = 0, l1Ms = 0, mergeMs = 0, traceMs = 0, totalMs = 0 } = result.timings ?? {};

    // Disjoint parts of one run: only floating-point rounding may separate them.
    expect(totalMs).toBeGreaterThanOrEqual(l0Ms + embedMs + l1Ms + mergeMs + traceMs - 1e-9);
  });

  it("reports timings on the fallback path and a trace time of 0 when tracing is off", async () => {
    const result = await lookup(
      {
        knowledgeBase: fakeSource({
          l0: l0With([makeCandidate(REFUND, 3)]),
          l1: new FakeL1Searcher(new Error("down")),
        }),
      },
      { query: "refund" },
    );

    expect(result.fallbackReason).toBe("l1_error");
    for (const value of Object.values(result.timings ?? {})) expectDuration(value);
    expect(result.timings?.traceMs).toBe(0);
  });

  it("records the stage durations in the trace line, without changing retrieval_details", async () => {
    const sink = new RecordingTraceSink();

    await lookup(
      { knowledgeBase: fakeSource({ l0: l0With([makeCandidate(REFUND, 3)]) }), traceSink: sink },
      { query: "refund" },
    );

    const durations = sink.records[0].durations_ms as Record<string, unknown>;
    expect(Object.keys(durations).sort()).toEqual(["embed", "l0", "l1", "merge", "total"]);
    for (const value of Object.values(durations)) expectDuration(value);
    expect(Object.keys(sink.records[0].retrieval_details as object).sort()).toEqual(
      [
        "candidate_count",
        "content_truncated",
        "evidence",
        "evidence_count",
        "fallback_reason",
        "l0",
        "l1",
        "relevance",
        "retrieval_layer",
      ].sort(),
    );
  });

  it("starts every run's clock afresh", async () => {
    const graph = createRetrievalGraph({
      knowledgeBase: fakeSource({ l0: l0With([makeCandidate(REFUND, 3)]) }),
      tracePath: null,
    });

    const first = await graph.invoke({ query: "refund" });
    const second = await graph.invoke({ query: "refund" });

    expect(second.runStartedAt).toBeGreaterThan(first.runStartedAt);
    expectDuration(second.result?.timings?.totalMs);
  });
});

describe("createRetrievalGraph: the trace file", () => {
  it("closes the trace file it opened for tracePath and opens it again for a later lookup", async () => {
    const dir = await mkdtemp(join(tmpdir(), "retrieval-graph-"));
    try {
      const tracePath = join(dir, "trace.jsonl");
      const graph = createRetrievalGraph({
        knowledgeBase: fakeSource({ l0: l0With([makeCandidate(REFUND, 3)]) }),
        tracePath,
      });

      await graph.invoke({ query: "refund" });
      await graph.close();
      const afterClose = await readFile(tracePath, "utf8");
      const { result } = await graph.invoke({ query: "refund" });
      await graph.close();

      expect(afterClose.split("\n")).toHaveLength(2);
      expect(result?.traceWritten).toBe(true);
      expect((await readFile(tracePath, "utf8")).split("\n")).toHaveLength(3);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("leaves an injected trace sink open", async () => {
    let closes = 0;
    const sink = Object.assign(new RecordingTraceSink(), { close: async () => void closes++ });
    const graph = createRetrievalGraph({ knowledgeBase: fakeSource(), traceSink: sink });

    await graph.invoke({ query: "refund" });
    await graph.close();

    expect(closes).toBe(0);
    expect(sink.records).toHaveLength(1);
  });
});
