import { describe, expect, it } from "vitest";
import { normalizeDomain } from "../../src/text/normalize-domain.js";

describe("normalizeDomain", () => {
  it("trims and lower-cases a domain", () => {
    expect(normalizeDomain("  Deployment ")).toBe("deployment");
  });

  it("gives null for a blank, null or absent domain", () => {
    expect(normalizeDomain("   ")).toBeNull();
    expect(normalizeDomain("")).toBeNull();
    expect(normalizeDomain(null)).toBeNull();
    expect(normalizeDomain(undefined)).toBeNull();
  });

  it("keeps inner spaces and punctuation as they are", () => {
    expect(normalizeDomain("Customer Support/EU")).toBe("customer support/eu");
  });
});
