import { describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import { createRetrievalGraph } from "../../src/graph/retrieval-graph.js";
import { createLookupKnowledgeTool } from "../../src/tool/lookup-knowledge-tool.js";
import { resolveToolName, TOOL_NAME_PATTERN } from "../../src/graph/tool-name.js";
import type { L0Searcher } from "../../src/l0/l0-search.js";
import {
  FakeL0Searcher,
  fakeSource,
  makeCandidate,
  NO_HINTS,
  RecordingTraceSink,
  REFUND_CHUNK,
} from "../helpers/retrieval-fakes.js";

const answering = () =>
  fakeSource({ l0: new FakeL0Searcher({ hints: NO_HINTS, candidates: [makeCandidate(REFUND_CHUNK, 1)] }) });
const throwing: L0Searcher = {
  search() {
    throw new Error("keyword index is gone");
  },
};

describe("resolveToolName", () => {
  it.each(["lookup_knowledge", "kb-billing", "A", "x".repeat(64), "lookup_v2"])("accepts %s", (name) => {
    expect(resolveToolName(name, "fallback")).toBe(name);
  });

  it("falls back when no name is given", () => {
    expect(resolveToolName(undefined, "lookup_knowledge")).toBe("lookup_knowledge");
  });

  it.each([
    ["an empty name", ""],
    ["a name with a space", "lookup knowledge"],
    ["a name with a dot", "kb.billing"],
    ["a 65-character name", "x".repeat(65)],
    ["a non-ASCII name", "recherche_données"],
    ["a name with a newline", "lookup\nknowledge"],
    ["a number", 7],
    ["null", null],
  ])("refuses %s with INVALID_OPTION and says which names work", (_label, name) => {
    const attempt = () => resolveToolName(name, "fallback");

    expect(attempt).toThrow(LookupKnowledgeError);
    expect(attempt).toThrow(expect.objectContaining({ code: "INVALID_OPTION" }));
    expect(attempt).toThrow(
      /option name must be 1 to 64 characters.*\^\[a-zA-Z0-9_-\]\{1,64\}\$.*snake_case name such as "lookup_billing_docs"/,
    );
  });

  it("quotes at most 80 characters of a long bad name", () => {
    expect(() => resolveToolName(" ".repeat(10_000), "fallback")).toThrow(/got " {79}…"/);
  });

  it("is the pattern providers document", () => {
    expect(TOOL_NAME_PATTERN.source).toBe("^[a-zA-Z0-9_-]{1,64}$");
  });
});

describe("the name option", () => {
  it("names the tool lookup_knowledge by default", () => {
    expect(createLookupKnowledgeTool({ knowledgeBase: fakeSource(), tracePath: null }).name).toBe("lookup_knowledge");
  });

  it("is the tool's name, the ToolMessage's name and the tool_name of its trace line", async () => {
    const sink = new RecordingTraceSink();
    const lookup = createLookupKnowledgeTool({
      knowledgeBase: answering(),
      traceSink: sink,
      name: "lookup_billing_docs",
    });

    const message = await lookup.invoke({
      type: "tool_call",
      id: "call-1",
      name: "lookup_billing_docs",
      args: { query: "refund" },
    });

    expect(lookup.name).toBe("lookup_billing_docs");
    expect(message.name).toBe("lookup_billing_docs");
    expect(sink.records).toEqual([expect.objectContaining({ tool_name: "lookup_billing_docs", status: "success" })]);
  });

  it("is the tool_name of the error line of a lookup that throws", async () => {
    const sink = new RecordingTraceSink();
    const lookup = createLookupKnowledgeTool({
      knowledgeBase: fakeSource({ l0: throwing }),
      traceSink: sink,
      name: "lookup_billing_docs",
    });

    await expect(lookup.invoke({ query: "refund" })).rejects.toThrow("keyword index is gone");

    expect(sink.records).toEqual([
      expect.objectContaining({ tool_name: "lookup_billing_docs", status: "error", error: "keyword index is gone" }),
    ]);
  });

  it("refuses an invalid tool name with INVALID_OPTION", () => {
    expect(() =>
      createLookupKnowledgeTool({ knowledgeBase: fakeSource(), tracePath: null, name: "lookup knowledge" }),
    ).toThrow(expect.objectContaining({ code: "INVALID_OPTION" }));
  });

  it("is the tool_name of the retrieval graph's trace lines, lookup_knowledge by default", async () => {
    const named = new RecordingTraceSink();
    const unnamed = new RecordingTraceSink();

    await createRetrievalGraph({ knowledgeBase: answering(), traceSink: named, name: "billing_graph" }).invoke({
      query: "refund",
    });
    await createRetrievalGraph({ knowledgeBase: answering(), traceSink: unnamed }).invoke({ query: "refund" });

    expect(named.records[0]).toMatchObject({ tool_name: "billing_graph" });
    expect(unnamed.records[0]).toMatchObject({ tool_name: "lookup_knowledge" });
  });

  it("is checked by createRetrievalGraph too", () => {
    expect(() => createRetrievalGraph({ knowledgeBase: fakeSource(), tracePath: null, name: "billing graph" })).toThrow(
      expect.objectContaining({ code: "INVALID_OPTION" }),
    );
  });
});
