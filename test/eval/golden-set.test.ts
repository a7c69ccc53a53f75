import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { resolve } from "node:path";
import { parse } from "yaml";
import { GOLDEN_SET_PATH, toTestCase } from "../../src/eval/promptfoo/golden-tests.js";
import type { GoldenVars } from "../../src/eval/promptfoo/golden-case.js";
import { loadCorpus } from "../../src/corpus/load-corpus.js";

type Entry = { description: string; vars: GoldenVars };

describe("the golden set", () => {
  let entries: Entry[];
  let sources: Map<string, string | undefined>;

  beforeAll(async () => {
    entries = parse(await readFile(GOLDEN_SET_PATH, "utf8")) as Entry[];
    const corpus = await loadCorpus("corpus");
    sources = new Map(corpus.chunks.map((chunk) => [chunk.source, chunk.meta.domain]));
  });

  it("has at least 80 questions with unique descriptions and queries", () => {
    expect(entries.length).toBeGreaterThanOrEqual(80);
    expect(new Set(entries.map((e) => e.description)).size).toBe(entries.length);
    expect(new Set(entries.map((e) => e.vars.query)).size).toBe(entries.length);
  });

  it("mixes every kind of question", () => {
    const kinds = new Map<string, number>();
    for (const { vars } of entries) kinds.set(vars.kind, (kinds.get(vars.kind) ?? 0) + 1);
    for (const kind of ["keyword", "paraphrase", "cross-domain", "single-domain", "no-answer"]) expect(kinds.get(kind) ?? 0, kind).toBeGreaterThanOrEqual(10);
  });

  it("names only gold sources that exist in the sample corpus, so a corpus edit cannot silently orphan a question", () => {
    const missing = entries.flatMap(({ description, vars }) => vars.gold.filter((source) => !sources.has(source)).map((source) => `${description}: ${source}`));
    expect(missing).toEqual([]);
  });

  it("gives no-answer questions no gold and every other question at least one", () => {
    for (const { description, vars } of entries) {
      if (vars.kind === "no-answer") expect(vars.gold, description).toEqual([]);
      else expect(vars.gold.length, description).toBeGreaterThan(0);
    }
  });

  it("puts the first gold source of a single-domain question in its expected domain", () => {
    for (const { description, vars } of entries.filter((e) => e.vars.kind === "single-domain")) {
      expect(sources.get(vars.gold[0]), description).toBe(vars.expected_domain);
    }
  });

  it("becomes promptfoo tests with scalar vars, ranking checks for answerable questions and the no-answer check otherwise", () => {
    const answerable = toTestCase(entries.find((e) => e.vars.gold.length > 0)!);
    const unanswerable = toTestCase(entries.find((e) => e.vars.kind === "no-answer")!);
    for (const test of [answerable, unanswerable]) {
      for (const value of Object.values(test.vars ?? {})) expect(typeof value).toBe("string");
    }
    const files = (test: typeof answerable) => (test.assert ?? []).map((a) => ("value" in a ? String(a.value) : ""));
    // Absolute, module-relative paths: a generated config works from any folder.
    const assertion = (name: string) => `file://${resolve("src/eval/assertions", `${name}.ts`)}`;
    expect(files(answerable)).toContain(assertion("ndcg-at-10"));
    expect(files(answerable)).not.toContain(assertion("no-answer"));
    expect(files(unanswerable)).toContain(assertion("no-answer"));
    expect(files(unanswerable)).not.toContain(assertion("ndcg-at-10"));
    expect(files(unanswerable)).toContain(assertion("trace-line"));
  });
});
