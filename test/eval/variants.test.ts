import { describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import { parseVariants, VARIANT_NAMES, VARIANTS, variantSlug } from "../../src/eval/variants.js";

describe("parseVariants", () => {
  it("parses a comma-separated list of names, keeping its order", () => {
    expect(parseVariants("L0+L1,L0,L1")).toEqual(["L0+L1", "L0", "L1"]);
  });

  it("accepts labels as well as names, in any case and with spaces around items", () => {
    expect(parseVariants(" l0 ONLY , L1 Only,l0+l1 ")).toEqual(["L0", "L1", "L0+L1"]);
  });

  it("skips empty items", () => {
    expect(parseVariants("L0,,L1,")).toEqual(["L0", "L1"]);
  });

  it("rejects an unknown name, quoting it and listing the valid ones", () => {
    expect(() => parseVariants("L0,L2")).toThrow('unknown variant "L2"; use a comma-separated list of L0, L1, L0+L1');
  });

  it("rejects a label with a typo rather than guessing", () => {
    expect(() => parseVariants("L0 onyl")).toThrow(/unknown variant "L0 onyl"/);
  });

  it("rejects an empty list with an option error and keeps a repeated name once", () => {
    expect(() => parseVariants(" , ")).toThrow(/no variant given; use a comma-separated list of L0, L1, L0\+L1/);
    expect(() => parseVariants("")).toThrow(LookupKnowledgeError);
    expect(parseVariants("L0,l0,L0 only")).toEqual(["L0"]);
  });
});

describe("variantSlug", () => {
  it("replaces + with - so the name can be a file name", () => {
    expect(variantSlug("L0+L1")).toBe("L0-L1");
  });

  it("leaves names without + unchanged", () => {
    expect(variantSlug("L0")).toBe("L0");
    expect(variantSlug("L1")).toBe("L1");
  });

  it("gives every variant a distinct slug of file-name-safe characters", () => {
    const slugs = VARIANT_NAMES.map(variantSlug);
    expect(new Set(slugs).size).toBe(VARIANT_NAMES.length);
    for (const slug of slugs) expect(slug).toMatch(/^[A-Za-z0-9_-]+$/);
  });
});

describe("VARIANTS", () => {
  it("disables L1 in the L0 variant and L0 in the L1 variant, and changes nothing in L0+L1", () => {
    expect(VARIANTS.L0.options).toEqual({ l1: { enabled: false } });
    expect(VARIANTS.L1.options).toEqual({ l0: { enabled: false } });
    expect(VARIANTS["L0+L1"].options).toEqual({});
  });
});
