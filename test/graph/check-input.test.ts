import { describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import { checkRetrievalInput } from "../../src/graph/check-input.js";
import { createRetrievalGraph } from "../../src/graph/retrieval-graph.js";
import { FakeL0Searcher, fakeSource, makeCandidate, NO_HINTS } from "../helpers/retrieval-fakes.js";

function errorOf(run: () => unknown): LookupKnowledgeError {
  try {
    run();
  } catch (error) {
    if (error instanceof LookupKnowledgeError) return error;
    throw error;
  }
  throw new Error("expected a LookupKnowledgeError");
}

describe("checkRetrievalInput", () => {
  it("returns a valid input as given", () => {
    const input = {
      query: "refund window",
      domain: null,
      limit: 5,
      invocationId: "inv-1",
      startedAt: 1_700_000_000_000,
    };
    expect(checkRetrievalInput(input)).toEqual(input);
  });

  it.each([
    ["a number as query", { query: 42, domain: null, limit: 5 }, /query 42/],
    ["a missing query", { query: undefined, domain: null, limit: 5 }, /query undefined/],
    ["an empty query", { query: "", domain: null, limit: 5 }, /query ""/],
    [
      "a query of 1001 characters",
      { query: "q".repeat(1001), domain: null, limit: 5 },
      /query a string of 1001 characters/,
    ],
    ["a negative limit", { query: "q", domain: null, limit: -1 }, /limit -1/],
    ["a limit above 20", { query: "q", domain: null, limit: 21 }, /limit 21/],
    ["a fractional limit", { query: "q", domain: null, limit: 2.5 }, /limit 2.5/],
    ["NaN as limit", { query: "q", domain: null, limit: Number.NaN }, /limit NaN/],
    ["an object as domain", { query: "q", domain: { $ne: 1 }, limit: 5 }, /domain object/],
    [
      "a domain of 101 characters",
      { query: "q", domain: "d".repeat(101), limit: 5 },
      /domain a string of 101 characters/,
    ],
    ["a start time that is not a number", { query: "q", domain: null, limit: 5, startedAt: "abc" }, /startedAt "abc"/],
    ["a start time beyond any date", { query: "q", domain: null, limit: 5, startedAt: 1e300 }, /startedAt 1e\+300/],
    ["an empty invocation id", { query: "q", domain: null, limit: 5, invocationId: "" }, /invocationId ""/],
  ])("refuses %s with INVALID_INPUT naming the field and value", (_name, input, message) => {
    const error = errorOf(() => checkRetrievalInput({ invocationId: "inv-1", startedAt: 0, ...input }));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toMatch(message);
    expect(error.message).toContain("limit?: integer 1-20");
  });
});

describe("the retrieval graph invoked directly", () => {
  const source = fakeSource({
    l0: new FakeL0Searcher({
      hints: NO_HINTS,
      candidates: Array.from({ length: 12 }, (_, i) => makeCandidate(`billing/r${i}.md#top`, 12 - i)),
    }),
    l1: null,
  });
  const graph = createRetrievalGraph({ knowledgeBase: source, tracePath: null });

  it("refuses a non-string query with INVALID_INPUT, not a TypeError", async () => {
    await expect(graph.invoke({ query: 42 as unknown as string })).rejects.toMatchObject({
      name: "LookupKnowledgeError",
      code: "INVALID_INPUT",
    });
  });

  it("refuses a negative limit instead of returning every candidate", async () => {
    await expect(graph.invoke({ query: "refund", limit: -1 })).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });

  it("accepts a limit up to its maxLimit option", async () => {
    const deep = createRetrievalGraph({ knowledgeBase: source, tracePath: null, maxLimit: 100 });
    const { result } = await deep.invoke({ query: "refund", limit: 100 });
    expect(result?.evidence).toHaveLength(12);
    await expect(deep.invoke({ query: "refund", limit: 101 })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("limit?: integer 1-100"),
    });
  });

  it("still answers a valid input", async () => {
    const { result } = await graph.invoke({ query: "refund", limit: 3 });
    expect(result?.evidence).toHaveLength(3);
    expect(result?.primary?.source).toBe("billing/r0.md#top");
  });
});
