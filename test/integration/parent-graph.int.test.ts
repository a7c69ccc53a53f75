import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { beforeAll, describe, expect, it } from "vitest";
import { createRetrievalGraph, KnowledgeBase, RetrievalState, type LookupResult } from "../../src/index.js";
import { KB_DIR } from "./helpers/integration-fixtures.js";

const QUERY = "how long does break-glass access last";

describe("the retrieval subgraph as a node of a parent graph", () => {
  let kb: KnowledgeBase;

  beforeAll(async () => {
    kb = await KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} });
  });

  it("hands its result to a parent whose state has only `query`, `result` and its own channel", async () => {
    const ParentState = Annotation.Root({
      query: Annotation<string>,
      result: Annotation<LookupResult | null>({ reducer: (_, next) => next, default: () => null }),
      citation: Annotation<string | null>({ reducer: (_, next) => next, default: () => null }),
    });
    const parent = new StateGraph(ParentState)
      .addNode("retrieve", createRetrievalGraph({ knowledgeBase: kb, tracePath: null }))
      .addNode("cite", function cite(state: typeof ParentState.State) {
        return { citation: state.result?.primary?.source ?? null };
      })
      .addEdge(START, "retrieve")
      .addEdge("retrieve", "cite")
      .addEdge("cite", END)
      .compile();

    const output = await parent.invoke({ query: QUERY });

    expect(Object.keys(output).sort()).toEqual(["citation", "query", "result"]);
    expect(output.result?.query).toBe(QUERY);
    expect(output.result?.evidence.length).toBeGreaterThan(0);
    expect(output.result?.primary?.source).toMatch(/^access\/break-glass\.md#/);
    expect(output.citation).toBe(output.result?.primary?.source);
  });

  it("shares the RetrievalState channels with a parent built on the same state", async () => {
    const ParentState = Annotation.Root({
      ...RetrievalState.spec,
      route: Annotation<string>({ reducer: (_, next) => next, default: () => "" }),
    });
    const parent = new StateGraph(ParentState)
      .addNode("retrieve", createRetrievalGraph({ knowledgeBase: kb, tracePath: null }))
      .addNode("decide", function decide(state: typeof ParentState.State) {
        return { route: state.result && state.result.evidence.length > 0 ? "answer" : "escalate" };
      })
      .addEdge(START, "retrieve")
      .addEdge("retrieve", "decide")
      .addEdge("decide", END)
      .compile();

    const output = await parent.invoke({ query: QUERY, domain: "access", limit: 2 });

    expect(output.route).toBe("answer");
    expect(output.domainFilter).toBe("access");
    expect(output.result?.evidence.length).toBeLessThanOrEqual(2);
    expect(output.result?.invocationId).toBe(output.invocationId);
    for (const block of output.result?.evidence ?? []) expect(block.source).toMatch(/^access\//);
  });
});
