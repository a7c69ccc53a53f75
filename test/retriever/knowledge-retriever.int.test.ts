import { EnsembleRetriever } from "@langchain/classic/retrievers/ensemble";
import { createRetrieverTool } from "@langchain/classic/tools/retriever";
import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import { ToolMessage } from "@langchain/core/messages";
import { FakeEmbeddings } from "@langchain/core/utils/testing";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createKnowledgeRetriever,
  KnowledgeBase,
  KnowledgeBaseRetriever,
  type KnowledgeDocumentMetadata,
} from "../../src/index.js";
import { RecordingTraceSink } from "../helpers/retrieval-fakes.js";
import { REPO_ROOT } from "../integration/helpers/integration-fixtures.js";

const QUERY = "What are the canary stages of a production deploy?";
const NOTES = [
  "Team notes: the on-call lead signs off every canary promotion.",
  "Team notes: deploys pause on Friday afternoons.",
];

describe("the knowledge retriever over the sample corpus, with LangChain's retriever tooling", () => {
  let kb: KnowledgeBase;

  beforeAll(async () => {
    kb = await KnowledgeBase.build({ corpusDir: join(REPO_ROOT, "corpus"), onWarning: () => {} });
  });

  it("returns the evidence as Documents whose metadata names the section and the lookup", async () => {
    const sink = new RecordingTraceSink();
    const retriever = createKnowledgeRetriever({ knowledgeBase: kb, traceSink: sink, limit: 3 });

    const docs = await retriever.invoke(QUERY);

    expect(docs).toHaveLength(3);
    const [top] = docs;
    expect(top.metadata.source).toMatch(/^deployment\/canary-releases\.md#/);
    expect(top.id).toBe(top.metadata.source);
    expect(top.pageContent).toBe(kb.chunks.find((chunk) => chunk.source === top.metadata.source)?.content);
    expect(top.metadata).toMatchObject({
      title: "Canary Releases",
      layer: expect.stringMatching(/^L0(\+L1)?$|^L1$/),
      rank: 1,
      relevance: expect.stringMatching(/^(high|medium|low)$/),
    });
    expect(top.metadata.breadcrumb[0]).toBe("Canary Releases");
    expect(top.metadata.termCoverage).toBeGreaterThan(0);
    expect(top.metadata.hitReasons.length).toBeGreaterThan(0);
    expect(sink.records).toEqual([
      expect.objectContaining({
        tool_name: "lookup_knowledge_retriever",
        status: "success",
        invocation_id: top.metadata.invocationId,
        corpus_fingerprint: kb.fingerprint,
      }),
    ]);
  });

  it("keeps to the domain it was given", async () => {
    const retriever = createKnowledgeRetriever({ knowledgeBase: kb, tracePath: null, domain: "billing", limit: 5 });
    const domainOf = new Map(kb.chunks.map((chunk) => [chunk.source, chunk.meta.domain]));

    // Rollbacks have sections in billing, deployment and data-platform.
    const docs = await retriever.invoke("how do I roll back");

    expect(docs.length).toBeGreaterThan(0);
    for (const doc of docs) expect(domainOf.get(doc.metadata.source), doc.metadata.source).toBe("billing");
    expect(docs.every((doc) => doc.metadata.domainFilter === "billing")).toBe(true);
  });

  it("takes part in an EnsembleRetriever as kb.asRetriever(), whose fused list holds our Documents with their metadata", async () => {
    const ours = kb.asRetriever({ tracePath: null, limit: 4 });
    expect(ours).toBeInstanceOf(KnowledgeBaseRetriever);
    const notes = await MemoryVectorStore.fromTexts(
      NOTES,
      [{ origin: "notes" }, { origin: "notes" }],
      new FakeEmbeddings(),
    );
    const ensemble = new EnsembleRetriever({ retrievers: [ours, notes.asRetriever(2)], weights: [0.5, 0.5] });

    const docs = await ensemble.invoke(QUERY);

    const fromKb = docs.filter((doc) => typeof doc.metadata.source === "string");
    expect(fromKb).toHaveLength(4);
    expect(
      docs
        .filter((doc) => doc.metadata.origin === "notes")
        .map((doc) => doc.pageContent)
        .sort(),
    ).toEqual([...NOTES].sort());
    const top = fromKb[0].metadata as KnowledgeDocumentMetadata;
    expect(top.source).toMatch(/^deployment\/canary-releases\.md#/);
    expect(fromKb.map((doc) => (doc.metadata as KnowledgeDocumentMetadata).rank)).toEqual([1, 2, 3, 4]);
    expect(top).toMatchObject({
      layer: expect.any(String),
      relevance: expect.any(String),
      hitReasons: expect.any(Array),
      invocationId: expect.any(String),
    });
  });

  it("backs a tool made by createRetrieverTool, whose answer quotes the top section", async () => {
    const sink = new RecordingTraceSink();
    const retriever = createKnowledgeRetriever({
      knowledgeBase: kb,
      traceSink: sink,
      limit: 2,
      name: "handbook_retriever",
    });
    const search = createRetrieverTool(retriever, {
      name: "search_handbook",
      description: "Search the Northwind Ledger handbook.",
    });

    const message: unknown = await search.invoke({
      type: "tool_call",
      id: "call-1",
      name: "search_handbook",
      args: { query: QUERY },
    });

    expect(message).toBeInstanceOf(ToolMessage);
    const content = String((message as ToolMessage).content);
    const [top] = await retriever.invoke(QUERY);
    expect(content).toContain(top.pageContent);
    expect(sink.records.map((record) => record.tool_name)).toEqual(["handbook_retriever", "handbook_retriever"]);
  });
});
