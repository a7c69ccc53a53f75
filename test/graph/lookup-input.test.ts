import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import { lookupKnowledgeSchema, MAX_QUERY_CHARS, type LookupKnowledgeInput } from "../../src/graph/lookup-schema.js";

// `npm run typecheck` checks the type assertion: the exported interface is written out so that the
// API report names no schema value, and must stay what the schema parses to.
describe("LookupKnowledgeInput", () => {
  it("is exactly the type the default lookup schema parses to", () => {
    expectTypeOf<z.infer<typeof lookupKnowledgeSchema>>().toEqualTypeOf<LookupKnowledgeInput>();
    const parsed: LookupKnowledgeInput = lookupKnowledgeSchema.parse({ query: "refund", domain: "billing", limit: 3 });
    expect(parsed).toEqual({ query: "refund", domain: "billing", limit: 3 });
  });
});

describe("the query limit", () => {
  it("counts Unicode code points, as JSON Schema's maxLength does: 1000 characters beyond the BMP pass, 1001 do not", () => {
    const astral = "\u{1F600}";
    expect(lookupKnowledgeSchema.safeParse({ query: astral.repeat(MAX_QUERY_CHARS) }).success).toBe(true);
    expect(lookupKnowledgeSchema.safeParse({ query: astral.repeat(MAX_QUERY_CHARS + 1) }).success).toBe(false);
    expect(lookupKnowledgeSchema.safeParse({ query: "a".repeat(MAX_QUERY_CHARS + 1) }).success).toBe(false);
  });
});
