import { describe, expect, it } from "vitest";
import { beirDocumentToChunk } from "../../src/eval/beir/to-chunks.js";
import type { BeirDocument } from "../../src/eval/beir/types.js";
import { LookupKnowledgeError } from "../../src/errors.js";

function doc(metadata: Record<string, unknown>, fields: Partial<BeirDocument> = {}): BeirDocument {
  return { id: "doc-7", title: "Refund Window", text: "Refunds are paid within 14 days.", metadata, ...fields };
}

function errorOf(run: () => unknown): LookupKnowledgeError {
  try {
    run();
  } catch (error) {
    if (error instanceof LookupKnowledgeError) return error;
    throw error;
  }
  throw new Error("expected a LookupKnowledgeError, but nothing was thrown");
}

describe("beirDocumentToChunk", () => {
  it("uses the document id as source and file, the text as content and the title as breadcrumb", () => {
    expect(beirDocumentToChunk(doc({}))).toEqual({
      source: "doc-7",
      file: "doc-7",
      title: "Refund Window",
      breadcrumb: ["Refund Window"],
      content: "Refunds are paid within 14 days.",
      meta: { title: "Refund Window", keywords: [], entities: [], aliases: [] },
    });
  });

  it("reads category as the domain, lower-cased", () => {
    expect(beirDocumentToChunk(doc({ category: "Billing" })).meta.domain).toBe("billing");
  });

  it("prefers an explicit domain over category", () => {
    expect(beirDocumentToChunk(doc({ domain: "shipping", category: "billing" })).meta.domain).toBe("shipping");
  });

  it("reads tags as keywords, from a list or a comma-separated string", () => {
    expect(beirDocumentToChunk(doc({ tags: ["refund", "returns"] })).meta.keywords).toEqual(["refund", "returns"]);
    expect(beirDocumentToChunk(doc({ tags: "refund, returns" })).meta.keywords).toEqual(["refund", "returns"]);
  });

  it("keeps entities and aliases and ignores unknown fields such as BEIR's nested metadata", () => {
    const chunk = beirDocumentToChunk(doc({ entities: ["Stripe"], aliases: ["money back"], metadata: { url: "https://example.org" } }));
    expect(chunk.meta).toEqual({ title: "Refund Window", keywords: [], entities: ["Stripe"], aliases: ["money back"] });
  });

  it("leaves title and breadcrumb out for a document with an empty title", () => {
    const chunk = beirDocumentToChunk(doc({}, { title: "" }));
    expect(chunk).not.toHaveProperty("title");
    expect(chunk.breadcrumb).toEqual([]);
  });

  it("throws DATASET_INVALID naming the document id and the field when a field has the wrong type", () => {
    const error = errorOf(() => beirDocumentToChunk(doc({ category: { name: "billing" } }, { id: "scifact-42" })));
    expect(error.code).toBe("DATASET_INVALID");
    expect(error.message).toBe('lookup-knowledge: corpus document "scifact-42": field "category" must be a string, got object.');
  });

  it("throws DATASET_INVALID for tags holding non-strings", () => {
    const error = errorOf(() => beirDocumentToChunk(doc({ tags: ["refund", { x: 1 }] })));
    expect(error.code).toBe("DATASET_INVALID");
    expect(error.message).toContain('corpus document "doc-7"');
    expect(error.message).toContain('field "tags" must be a list of strings');
  });
});
