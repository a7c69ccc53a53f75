import { describe, expect, it } from "vitest";
import { normalizeFrontmatter } from "../../src/corpus/frontmatter.js";
import { LookupKnowledgeError } from "../../src/errors.js";

describe("normalizeFrontmatter", () => {
  it("gives empty lists and no title or domain for empty frontmatter", () => {
    expect(normalizeFrontmatter({})).toEqual({ keywords: [], entities: [], aliases: [] });
  });

  it("keeps title, lower-cases the domain and copies the lists, ignoring unknown keys", () => {
    expect(
      normalizeFrontmatter({ title: " Refunds ", domain: "Billing", keywords: ["refund"], entities: ["Stripe"], aliases: ["money back"], owner: "ana" }),
    ).toEqual({ title: "Refunds", domain: "billing", keywords: ["refund"], entities: ["Stripe"], aliases: ["money back"] });
  });

  it("reads category as the domain", () => {
    expect(normalizeFrontmatter({ category: "HR" }).domain).toBe("hr");
  });

  it("prefers domain over category when both are set", () => {
    expect(normalizeFrontmatter({ domain: "it", category: "hr" }).domain).toBe("it");
  });

  it("falls back to category when domain is blank", () => {
    expect(normalizeFrontmatter({ domain: "   ", category: "ops" }).domain).toBe("ops");
  });

  it("reads tags as the keywords, and prefers keywords when both are set", () => {
    expect(normalizeFrontmatter({ tags: ["deploy", "release"] }).keywords).toEqual(["deploy", "release"]);
    expect(normalizeFrontmatter({ keywords: ["a"], tags: ["b"] }).keywords).toEqual(["a"]);
  });

  it("splits a comma-separated string into a trimmed list without blanks or duplicates", () => {
    expect(normalizeFrontmatter({ tags: " deploy, release ,, deploy ,rollback" }).keywords).toEqual(["deploy", "release", "rollback"]);
  });

  it("accepts numbers where strings are expected", () => {
    expect(normalizeFrontmatter({ title: 2024, keywords: [1, "two"] })).toMatchObject({ title: "2024", keywords: ["1", "two"] });
  });

  it("ignores null fields", () => {
    expect(normalizeFrontmatter({ title: null, domain: null, keywords: null })).toEqual({ keywords: [], entities: [], aliases: [] });
  });

  it.each([
    ["a list as the title", { title: ["a"] }, "title"],
    ["an object as the domain", { domain: { name: "it" } }, "domain"],
    ["a boolean as the category", { category: true }, "category"],
    ["a number as the keywords", { keywords: 5 }, "keywords"],
    ["an object inside the tags", { tags: ["ok", { bad: 1 }] }, "tags"],
    ["a boolean as the entities", { entities: false }, "entities"],
    ["a nested list as the aliases", { aliases: [["x"]] }, "aliases"],
  ])("throws a CORPUS_FILE_INVALID LookupKnowledgeError naming the field for %s", (_label, data, field) => {
    expect(() => normalizeFrontmatter(data)).toThrow(LookupKnowledgeError);
    expect(() => normalizeFrontmatter(data)).toThrow(expect.objectContaining({ code: "CORPUS_FILE_INVALID", message: expect.stringContaining(`"${field}"`) }));
  });
});

describe("normalizeFrontmatter access", () => {
  it("trims, sorts and dedupes a list of groups", () => {
    expect(normalizeFrontmatter({ access: [" ops", "finance", "ops ", "finance"] }).access).toEqual(["finance", "ops"]);
  });

  it("splits a comma-separated string of groups", () => {
    expect(normalizeFrontmatter({ access: "ops, finance ,, ops" }).access).toEqual(["finance", "ops"]);
    expect(normalizeFrontmatter({ access: "hr" }).access).toEqual(["hr"]);
  });

  it("keeps group names that differ only in case", () => {
    expect(normalizeFrontmatter({ access: ["ops", "Ops"] }).access).toEqual(["Ops", "ops"]);
  });

  it("reads numbers as group names", () => {
    expect(normalizeFrontmatter({ access: [42, "ops"] }).access).toEqual(["42", "ops"]);
  });

  it("leaves the access key out only when the field is absent", () => {
    expect(normalizeFrontmatter({ title: "Open" })).not.toHaveProperty("access");
  });

  it("reads a present but empty access field as readable by nobody, so that a blank label fails closed", () => {
    expect(normalizeFrontmatter({ access: null }).access).toEqual([]);
  });

  it.each([
    ["an empty list", []],
    ["a list of blanks", ["", "  "]],
    ["an empty string", ""],
    ["a string of blanks and commas", " , ,"],
  ])("reads %s as a label naming nobody, never as no label", (_label, access) => {
    expect(normalizeFrontmatter({ access })).toHaveProperty("access", []);
  });

  it("keeps the other fields as they are", () => {
    expect(normalizeFrontmatter({ title: "Payroll", domain: "HR", access: ["hr"] })).toEqual({ title: "Payroll", domain: "hr", keywords: [], entities: [], aliases: [], access: ["hr"] });
  });

  it.each([
    ["a number", 5],
    ["a boolean", true],
    ["a mapping", { team: "ops" }],
    ["a nested list", [["ops"]]],
    ["a mapping inside the list", ["ops", { team: "hr" }]],
    ["null inside the list", ["ops", null]],
  ])("throws a CORPUS_FILE_INVALID LookupKnowledgeError naming access for %s", (_label, access) => {
    expect(() => normalizeFrontmatter({ access })).toThrow(LookupKnowledgeError);
    expect(() => normalizeFrontmatter({ access })).toThrow(expect.objectContaining({ code: "CORPUS_FILE_INVALID", message: expect.stringContaining('"access"') }));
  });

  it("accepts a group of 256 characters, measured after trimming", () => {
    const longest = "g".repeat(256);
    expect(normalizeFrontmatter({ access: [` ${longest} `] }).access).toEqual([longest]);
  });

  it("refuses a group over 256 characters, without quoting it", () => {
    const long = `secret-${"g".repeat(250)}`;
    expect(() => normalizeFrontmatter({ access: ["ops", long] })).toThrow(expect.objectContaining({ code: "CORPUS_FILE_INVALID", message: expect.stringContaining("256") }));
    expect(() => normalizeFrontmatter({ access: `ops, ${long}` })).toThrow(expect.objectContaining({ message: expect.not.stringContaining("secret-") }));
  });
});
