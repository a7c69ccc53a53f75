import { describe, expect, it } from "vitest";
import { checkDomain, listNames, lookupArgs } from "../../src/cli/lookup-args.js";
import { LookupKnowledgeError } from "../../src/errors.js";

const DOMAINS = ["access", "billing", "deployment"];

function usageMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(LookupKnowledgeError);
    expect((error as LookupKnowledgeError).code).toBe("USAGE");
    expect((error as Error).message).not.toContain("\n");
    return (error as Error).message;
  }
  throw new Error("no error");
}

describe("checkDomain", () => {
  it("accepts a known domain whatever its case and surrounding spaces, as the tool compares it", () => {
    expect(checkDomain(" Billing ", DOMAINS)).toBe("billing");
  });

  it("refuses an unknown domain, listing the index's domains", () => {
    expect(usageMessage(() => checkDomain("finance", DOMAINS))).toBe(
      'lookup-knowledge: query: unknown domain "finance"; the index\'s 3 domains are "access", "billing", "deployment". Run `lookup-knowledge query --help` for usage.',
    );
  });

  it("lists the first 20 domains of a large base and counts the rest", () => {
    const many = Array.from({ length: 250 }, (_, i) => `d${String(i).padStart(3, "0")}`);
    const message = usageMessage(() => checkDomain("nope", many));
    expect(message).toContain('the index\'s 250 domains are "d000", "d001"');
    expect(message).toContain('"d019" and 230 more.');
    expect(message).not.toContain("d020");
  });

  it("says so when the index has no domains, and refuses an empty value", () => {
    expect(usageMessage(() => checkDomain("billing", []))).toContain("this index has no domains");
    expect(usageMessage(() => checkDomain("  ", DOMAINS))).toContain('--domain needs a domain name, got "  "');
  });
});

describe("listNames", () => {
  it("quotes every name up to the cap", () => {
    expect(listNames(["a", "b"], 5)).toBe('"a", "b"');
    expect(listNames(["a", "b", "c"], 2)).toBe('"a", "b" and 1 more');
  });
});

describe("lookupArgs", () => {
  it("gives the tool's input with the domain normalised", () => {
    expect(lookupArgs("refunds", 3, "BILLING", DOMAINS)).toEqual({ query: "refunds", limit: 3, domain: "billing" });
    expect(lookupArgs("refunds", 3, undefined, DOMAINS)).toEqual({ query: "refunds", limit: 3 });
  });

  it("turns the tool schema's refusal of a too-long question into one usage line naming its length", () => {
    const message = usageMessage(() => lookupArgs("x".repeat(1200), 5, undefined, DOMAINS));
    expect(message).toMatch(
      /^lookup-knowledge: query: the question is not accepted \(.*1000.*\), got 1200 characters\./,
    );
  });
});
