import { describe, expect, it } from "vitest";
import { chooseDomainFilter, fallbackReasonFor, routeAfterL1, type AfterL1Route } from "../../src/graph/routes.js";
import type { FallbackReason, L1Status } from "../../src/types.js";
import { hints } from "../helpers/retrieval-fakes.js";

describe("routeAfterL1", () => {
  it.each<[L1Status | null, AfterL1Route]>([
    ["ok", "collect_evidence"],
    ["empty", "l0_fallback"],
    ["error", "l0_fallback"],
    ["disabled", "l0_fallback"],
    ["unavailable", "l0_fallback"],
    [null, "l0_fallback"],
  ])("routes L1 status %s to %s", (l1Status, route) => {
    expect(routeAfterL1({ l1Status })).toBe(route);
  });
});

describe("fallbackReasonFor", () => {
  it.each<[L1Status | null, FallbackReason]>([
    ["ok", null],
    ["empty", "l1_empty"],
    ["error", "l1_error"],
    ["disabled", "l1_disabled"],
    ["unavailable", "l1_unavailable"],
    [null, null],
  ])("gives L1 status %s the fallback reason %s", (status, reason) => {
    expect(fallbackReasonFor(status)).toBe(reason);
  });
});

describe("chooseDomainFilter", () => {
  it.each<[string, string | null, string[], string | null]>([
    ["no forced domain and no hinted domains", null, [], null],
    ["one hinted domain", null, ["billing"], "billing"],
    ["two hinted domains", null, ["billing", "it"], null],
    ["only a blank hinted domain", null, ["  "], null],
    ["one real and one blank hinted domain", null, ["billing", " "], "billing"],
    ["one hinted domain with spaces", null, [" billing "], "billing"],
    ["one hinted domain listed twice, once with spaces", null, ["billing", "billing "], "billing"],
    ["three hinted domains", null, ["billing", "deployment", "incident-runbooks"], null],
    ["a forced domain and another hinted one", "it", ["billing"], "it"],
    ["a forced domain with spaces and capitals", "  Billing ", [], "billing"],
    ["a forced domain and two hinted ones", "HR", ["billing", "it"], "hr"],
    ["a blank forced domain and one hinted one", "   ", ["billing"], "billing"],
    ["an empty forced domain and no hints", "", [], null],
  ])("with %s chooses the right filter", (_label, forced, domains, expected) => {
    expect(chooseDomainFilter(forced, hints({ domains }))).toBe(expected);
  });

  it("counts a hinted domain whatever its evidence says, weak or strong", () => {
    const weak = hints({ domains: ["billing"], domainEvidence: [{ domain: "billing", strength: 1, files: 1 }] });
    const split = hints({
      domains: ["billing", "it"],
      domainEvidence: [
        { domain: "billing", strength: 9, files: 4 },
        { domain: "it", strength: 1, files: 1 },
      ],
    });
    expect(chooseDomainFilter(null, weak)).toBe("billing");
    expect(chooseDomainFilter(null, split)).toBeNull();
  });

  it("does not modify the hints it reads", () => {
    const h = hints({ domains: ["billing", "  "] });
    chooseDomainFilter(null, h);
    expect(h.domains).toEqual(["billing", "  "]);
  });
});
