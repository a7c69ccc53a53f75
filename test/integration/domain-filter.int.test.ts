import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLookupKnowledgeTool,
  createRetrievalGraph,
  KnowledgeBase,
  type LookupResult,
  type ToolInvocationRecord,
} from "../../src/index.js";
import { createTempDirs, KB_DIR, readJsonl, REPO_ROOT } from "./helpers/integration-fixtures.js";

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
    return (result?.evidence ?? [])
      .filter((block) => block.hitReasons.some((reason) => reason.startsWith("L1:")))
      .map((block) => block.source);
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
    for (const candidate of [...state.l1Candidates, ...state.l0Candidates])
      expect(candidate.chunk.meta.domain).toBe("billing");

    const unforced = await graph.invoke({ query: DEPLOYMENT_HINTED_QUERY, limit: 4 });
    expect(unforced.domainFilter).toBe("deployment");
  });

  it("keeps every evidence block in the domain the tool caller names", async () => {
    const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: null });
    const message = await lookup.invoke({
      type: "tool_call",
      id: "forced",
      name: lookup.name,
      args: { query: DEPLOYMENT_HINTED_QUERY, domain: "billing" },
    });
    const result = message.artifact as LookupResult;
    expect(result.domainFilter).toBe("billing");
    expect(result.evidence.length).toBeGreaterThan(0);
    for (const block of result.evidence) expect(domainOf.get(block.source), block.source).toBe("billing");
  });

  it("searches every domain when a shared word points at several", async () => {
    const graph = createRetrievalGraph({ knowledgeBase: kb, tracePath: null });
    const { result } = await graph.invoke({ query: "rollback", limit: 10 });
    // "rollback" is a keyword of a billing and of a deployment page: the hints name both domains.
    expect(result?.hints.keywords).toContain("rollback");
    expect(result?.hints.domains).toEqual(["billing", "deployment"]);
    expect(result?.domainFilter).toBeNull();
    const domains = new Set(result?.evidence.map((block) => domainOf.get(block.source)));
    expect(domains).toContain("billing");
    expect(domains).toContain("deployment");
  });
});

/** The sample corpus: `refund` is a keyword of a billing page and of an incident runbook. */
const SAMPLE_CORPUS_DIR = join(REPO_ROOT, "corpus");

describe("hint domains as the spec defines them: the domain of every matched entry", () => {
  const temp = createTempDirs();
  let kb: KnowledgeBase;
  let domainOf: Map<string, string | undefined>;

  beforeAll(async () => {
    kb = await KnowledgeBase.build({ corpusDir: SAMPLE_CORPUS_DIR, onWarning: () => {} });
    domainOf = new Map(kb.chunks.map((chunk) => [chunk.source, chunk.meta.domain]));
  });
  afterAll(() => temp.cleanup());

  /** One tool call with a trace file of its own: the artifact and its one trace line. */
  async function lookupTraced(knowledgeBase: KnowledgeBase, args: { query: string; domain?: string }) {
    const tracePath = join(await temp.make(), "tool_invocation.jsonl");
    const lookup = createLookupKnowledgeTool({ knowledgeBase, tracePath, l1: { minScore: -1 } });
    const message = await lookup.invoke({
      type: "tool_call",
      id: "hint-domains",
      name: lookup.name,
      args: { limit: 10, ...args },
    });
    const lines = (await readJsonl(tracePath)) as ToolInvocationRecord[];
    expect(lines).toHaveLength(1);
    const details = lines[0].retrieval_details;
    if (details === null) throw new Error("expected retrieval details in the trace");
    return { result: message.artifact as LookupResult, details };
  }

  function l1Domains(candidates: readonly { chunk: { meta: { domain?: string } } }[]): Set<string | undefined> {
    return new Set(candidates.map((candidate) => candidate.chunk.meta.domain));
  }

  it("lists both domains of a keyword two domains share and runs L1 unfiltered", async () => {
    const { result, details } = await lookupTraced(kb, { query: "refund" });

    expect(result.hints.keywords).toContain("refund");
    expect(result.hints.domains).toEqual(["billing", "incident-runbooks"]);
    expect(result.hints.domainEvidence?.map(({ domain, files }) => ({ domain, files }))).toEqual([
      { domain: "billing", files: 1 },
      { domain: "incident-runbooks", files: 1 },
    ]);
    expect(result.domainFilter).toBeNull();
    expect(result.l1Status).toBe("ok");
    expect(details.l0.domains).toEqual(["billing", "incident-runbooks"]);
    expect(details.l0.domain_evidence).toEqual(result.hints.domainEvidence);
    expect(details.l1.domain_filter).toBeNull();
    for (const block of result.evidence)
      expect(
        block.hitReasons.some((reason) => reason.startsWith("L1:domain_filter:")),
        block.source,
      ).toBe(false);

    const state = await createRetrievalGraph({
      knowledgeBase: kb,
      tracePath: null,
      l1: { k: 20, minScore: -1 },
    }).invoke({ query: "refund", limit: 10 });
    expect(state.domainFilter).toBeNull();
    expect(l1Domains(state.l1Candidates).size).toBeGreaterThan(1);
  });

  it("filters L1 by the one domain of the matched entries, even on a single shared-vocabulary keyword", async () => {
    // "service credits" is a keyword of one runbook only, though other pages use the words: weak, still one domain.
    const { result, details } = await lookupTraced(kb, { query: "service credits after an outage" });

    expect(result.hints.keywords).toContain("service credits");
    expect(result.hints.domains).toEqual(["incident-runbooks"]);
    expect(result.domainFilter).toBe("incident-runbooks");
    expect(details.l1.domain_filter).toBe("incident-runbooks");
    const l1Blocks = result.evidence.filter((block) => block.hitReasons.some((reason) => reason.startsWith("L1:")));
    expect(l1Blocks.length).toBeGreaterThan(0);
    for (const block of l1Blocks) {
      expect(block.hitReasons).toContain("L1:domain_filter:incident-runbooks");
      expect(domainOf.get(block.source), block.source).toBe("incident-runbooks");
    }
  });

  it("runs L1 unfiltered when no short field matched", async () => {
    const { result, details } = await lookupTraced(kb, { query: "how long do we keep old records" });

    expect(result.hints).toEqual({ titles: [], keywords: [], domains: [], entities: [], domainEvidence: [] });
    expect(result.domainFilter).toBeNull();
    expect(result.l1Status).toBe("ok");
    expect(details.l0.domains).toEqual([]);
    expect(details.l1.domain_filter).toBeNull();
    const l1Sources = result.evidence
      .filter((block) => block.hitReasons.some((reason) => reason.startsWith("L1:")))
      .map((block) => block.source);
    expect(new Set(l1Sources.map((source) => domainOf.get(source))).size).toBeGreaterThan(1);
  });

  it("lets a forced domain win over two hinted domains", async () => {
    const { result, details } = await lookupTraced(kb, { query: "refund", domain: "billing" });

    expect(result.domainFilter).toBe("billing");
    expect(details.l1.domain_filter).toBe("billing");
    for (const block of result.evidence) expect(domainOf.get(block.source), block.source).toBe("billing");
  });

  it("does not count a file whose domain is blank", async () => {
    const dir = await temp.make();
    const files: Record<string, string> = {
      "billing/quotas.md":
        "---\ntitle: Invoice Quotas\ndomain: billing\nkeywords: [quota]\n---\n# Invoice Quotas\n\nEach account may send a set number of invoices per month.\n",
      "misc/blank.md":
        '---\ntitle: Storage Notes\ndomain: "   "\nkeywords: [quota]\n---\n# Storage Notes\n\nDisk usage is capped per team.\n',
      "misc/none.md":
        "---\ntitle: Mailbox Notes\nkeywords: [quota]\n---\n# Mailbox Notes\n\nMailboxes are capped at fifty gigabytes.\n",
      "ops/uptime.md":
        "---\ntitle: Uptime Targets\ndomain: ops\nkeywords: [uptime]\n---\n# Uptime Targets\n\nServices aim for three nines of availability.\n",
    };
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    const small = await KnowledgeBase.build({ corpusDir: dir, onWarning: () => {} });
    expect(
      small.chunks
        .filter((chunk) => chunk.meta.domain === undefined)
        .map((chunk) => chunk.file)
        .sort(),
    ).toEqual(["misc/blank.md", "misc/none.md"]);

    const { result, details } = await lookupTraced(small, { query: "quota" });

    expect(result.hints.keywords).toEqual(["quota"]);
    expect(result.hints.domains).toEqual(["billing"]);
    expect(result.domainFilter).toBe("billing");
    expect(details.l1.domain_filter).toBe("billing");
    for (const block of result.evidence.filter((b) => b.hitReasons.some((reason) => reason.startsWith("L1:")))) {
      expect(block.source.startsWith("billing/"), block.source).toBe(true);
    }
  });
});
