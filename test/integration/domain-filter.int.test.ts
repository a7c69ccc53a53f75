import { beforeAll, describe, expect, it } from "vitest";
import { createLookupKnowledgeTool, createRetrievalGraph, KnowledgeBase, type LookupResult } from "../../src/index.js";
import { KB_DIR } from "./helpers/integration-fixtures.js";

/** Names an access-domain entity (Vaultkeeper) but is otherwise worded like the billing documents. */
const ACCESS_HINTED_QUERY = "Vaultkeeper wrong amounts currency tax batch";
/** Points at the deployment domain through the Helmsman entity. */
const DEPLOYMENT_HINTED_QUERY = "how do I roll back a bad deploy with Helmsman";

describe("the L1 domain filter, applied inside the HNSW search", () => {
  let kb: KnowledgeBase;
  let domainOf: Map<string, string | undefined>;
  let chunksIn: (domain: string) => number;

  beforeAll(async () => {
    kb = await KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} });
    domainOf = new Map(kb.chunks.map((chunk) => [chunk.source, chunk.meta.domain]));
    chunksIn = (domain) => kb.chunks.filter((chunk) => chunk.meta.domain === domain).length;
  });

  function l1Sources(result: LookupResult | null): string[] {
    return (result?.evidence ?? []).filter((block) => block.hitReasons.some((reason) => reason.startsWith("L1:"))).map((block) => block.source);
  }

  it("fills k with chunks of the hinted domain even when the unfiltered neighbours are mostly elsewhere", async () => {
    const k = 3;
    // Precondition: a post-filter over the unfiltered top k would keep fewer than k.
    const unfiltered = await kb.l1!.search(ACCESS_HINTED_QUERY, { domain: null, k, minScore: -1 });
    expect(unfiltered.filter((hit) => hit.chunk.meta.domain === "access").length).toBeLessThan(k);

    const graph = createRetrievalGraph({ knowledgeBase: kb, tracePath: null, l1: { k, minScore: -1 } });
    const state = await graph.invoke({ query: ACCESS_HINTED_QUERY, limit: k });
    expect(state.hints.domains).toEqual(["access"]);
    expect(state.domainFilter).toBe("access");
    expect(state.l1Status).toBe("ok");
    expect(state.l1Candidates).toHaveLength(Math.min(k, chunksIn("access")));
    for (const candidate of state.l1Candidates) expect(candidate.chunk.meta.domain).toBe("access");
    const l1Evidence = l1Sources(state.result);
    expect(l1Evidence.length).toBeGreaterThan(0);
    for (const source of l1Evidence) expect(domainOf.get(source), source).toBe("access");
  });

  it("returns every chunk of the domain when k exceeds the domain's size", async () => {
    const graph = createRetrievalGraph({ knowledgeBase: kb, tracePath: null, l1: { k: 50, minScore: -1 } });
    const state = await graph.invoke({ query: ACCESS_HINTED_QUERY, limit: 20 });
    expect(state.domainFilter).toBe("access");
    expect(state.l1Candidates).toHaveLength(chunksIn("access"));
    expect(new Set(state.l1Candidates.map((candidate) => candidate.chunk.source)).size).toBe(chunksIn("access"));
    for (const candidate of state.l1Candidates) {
      expect(candidate.chunk.meta.domain).toBe("access");
      expect(candidate.hitReasons).toContain("L1:domain_filter:access");
    }
    for (const source of l1Sources(state.result)) expect(domainOf.get(source), source).toBe("access");
  });

  it("lets an explicit domain override the domain the hints point at", async () => {
    const graph = createRetrievalGraph({ knowledgeBase: kb, tracePath: null, l1: { k: 4, minScore: -1 } });
    const state = await graph.invoke({ query: DEPLOYMENT_HINTED_QUERY, domain: "Billing", limit: 4 });
    expect(state.domainFilter).toBe("billing");
    expect(state.l1Candidates).toHaveLength(Math.min(4, chunksIn("billing")));
    for (const candidate of [...state.l1Candidates, ...state.l0Candidates]) expect(candidate.chunk.meta.domain).toBe("billing");

    const unforced = await graph.invoke({ query: DEPLOYMENT_HINTED_QUERY, limit: 4 });
    expect(unforced.domainFilter).toBe("deployment");
  });

  it("keeps every evidence block in the domain the tool caller names", async () => {
    const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: null });
    const message = await lookup.invoke({ type: "tool_call", id: "forced", name: lookup.name, args: { query: DEPLOYMENT_HINTED_QUERY, domain: "billing" } });
    const result = message.artifact as LookupResult;
    expect(result.domainFilter).toBe("billing");
    expect(result.evidence.length).toBeGreaterThan(0);
    for (const block of result.evidence) expect(domainOf.get(block.source), block.source).toBe("billing");
  });

  it("searches every domain when a shared word points at several", async () => {
    const graph = createRetrievalGraph({ knowledgeBase: kb, tracePath: null });
    const { result } = await graph.invoke({ query: "rollback", limit: 10 });
    // "rollback" is a keyword of both domains: a shared word is too weak to name either one.
    expect(result?.hints.keywords).toContain("rollback");
    expect(result?.hints.domains).not.toHaveLength(1);
    expect(result?.domainFilter).toBeNull();
    const domains = new Set(result?.evidence.map((block) => domainOf.get(block.source)));
    expect(domains).toContain("billing");
    expect(domains).toContain("deployment");
  });
});
