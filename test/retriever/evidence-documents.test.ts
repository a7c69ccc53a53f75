import { Document } from "@langchain/core/documents";
import { describe, expect, it } from "vitest";
import { evidenceToDocuments } from "../../src/retriever/evidence-documents.js";
import { evidenceBlock, lookupResult } from "../tool/helpers/lookup-result.js";

describe("evidenceToDocuments", () => {
  it("makes one Document per block, in rank order, with the block's content as written and its source as id", () => {
    const result = lookupResult([
      evidenceBlock({ source: "billing/refunds.md#window", content: "Refunds <b>within</b> 30 days.\nSecond line." }),
      evidenceBlock({ source: "billing/refunds.md#exceptions", content: "Exceptions." }),
    ]);

    const docs = evidenceToDocuments(result);

    expect(docs).toHaveLength(2);
    expect(docs[0]).toBeInstanceOf(Document);
    expect(docs.map((doc) => doc.id)).toEqual(["billing/refunds.md#window", "billing/refunds.md#exceptions"]);
    expect(docs[0].pageContent).toBe("Refunds <b>within</b> 30 days.\nSecond line.");
    expect(docs.map((doc) => doc.metadata.rank)).toEqual([1, 2]);
  });

  it("puts the block's scores and reasons and the lookup's relevance in the metadata", () => {
    const block = evidenceBlock({
      source: "deploy/rollback.md#steps",
      title: "Rollback",
      breadcrumb: ["Rollback", "Steps"],
      retrievalLayer: "L0+L1",
      score: 0.9,
      termCoverage: 0.75,
      similarity: 0.61,
      hitReasons: ["L0:bm25:3.10", "L1:similarity:0.61"],
      truncated: { shownChars: 4000, totalChars: 9000 },
    });
    const result = lookupResult([block], {
      invocationId: "inv-1",
      retrievalLayer: "L0+L1",
      domainFilter: "deployment",
      relevance: { level: "high", semanticSupport: true, reason: "both layers" },
    });

    const [doc] = evidenceToDocuments(result);

    expect(doc.metadata).toEqual({
      source: "deploy/rollback.md#steps",
      title: "Rollback",
      breadcrumb: ["Rollback", "Steps"],
      domainFilter: "deployment",
      layer: "L0+L1",
      rank: 1,
      score: 0.9,
      termCoverage: 0.75,
      similarity: 0.61,
      hitReasons: ["L0:bm25:3.10", "L1:similarity:0.61"],
      truncated: { shownChars: 4000, totalChars: 9000 },
      relevance: "high",
      retrievalLayer: "L0+L1",
      invocationId: "inv-1",
    });
  });

  it("writes null for what a block does not have, and no domain", () => {
    const [doc] = evidenceToDocuments(
      lookupResult([{ source: "a.md#top", retrievalLayer: "L0", content: "text", hitReasons: [], score: Number.NaN }]),
    );

    expect(doc.metadata).toMatchObject({
      title: null,
      breadcrumb: [],
      score: null,
      termCoverage: null,
      similarity: null,
      truncated: null,
    });
    expect(doc.metadata).not.toHaveProperty("domain");
  });

  it("copies the lists, so that changing a Document leaves the lookup result as it was", () => {
    const result = lookupResult([evidenceBlock({ hitReasons: ["L0:bm25:1.00"] })]);

    evidenceToDocuments(result)[0].metadata.hitReasons.push("changed");

    expect(result.evidence[0].hitReasons).toEqual(["L0:bm25:1.00"]);
  });

  it("makes no Document for a lookup without evidence", () => {
    expect(evidenceToDocuments(lookupResult([]))).toEqual([]);
  });
});
