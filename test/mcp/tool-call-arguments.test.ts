import { describe, expect, it } from "vitest";
import { createLookupKnowledgeSchema } from "../../src/graph/lookup-schema.js";
import { checkToolArguments } from "../../src/mcp/tool-call-arguments.js";

describe("checkToolArguments", () => {
  const schema = createLookupKnowledgeSchema(20, { domains: ["billing"] });

  it("refuses null, an array and a string as arguments in one line, naming what they are", () => {
    for (const [args, kind] of [
      [null, "null"],
      [[1], "an array"],
      ["query", "string"],
    ] as const) {
      const checked = checkToolArguments(schema, args, "lookup_knowledge");
      expect(checked.ok).toBe(false);
      if (checked.ok) continue;
      expect(checked.refusal.error.code).toBe("INVALID_INPUT");
      expect(checked.refusal.error.message).toContain(`arguments is ${kind}`);
      expect(checked.refusal.error.message).not.toContain("\n");
    }
  });

  it("names each bad field without echoing the value the client sent", () => {
    const secret = "x".repeat(2000);
    const checked = checkToolArguments(schema, { query: secret, limit: 99, domain: "payroll" }, "lookup_knowledge");
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    const { message } = checked.refusal.error;
    expect(message).toMatch(/query: .*domain: .*limit: /);
    expect(message).not.toContain("xxxxxxxxxx");
    expect(message).not.toContain("\n");
    expect(checked.refusal.input).toEqual({ query: secret, domain: "payroll", limit: 99 });
  });

  it("keeps of refused arguments only the fields of the lookup's types", () => {
    const checked = checkToolArguments(schema, { query: 5, domain: ["a"], limit: "9" }, "lookup_knowledge");
    expect(checked.ok ? null : checked.refusal.input).toEqual({ query: "", domain: null, limit: 0 });
  });

  it("takes absent arguments as an empty object and passes valid ones through parsed", () => {
    expect(checkToolArguments(schema, undefined, "lookup_knowledge").ok).toBe(false);
    expect(checkToolArguments(schema, { query: "refunds", domain: "billing" }, "lookup_knowledge")).toEqual({
      ok: true,
      args: { query: "refunds", domain: "billing" },
    });
  });
});
