/**
 * Permission-aware retrieval, adversarially, with L1 in the in-process HNSW graph (the default):
 * the scenarios check that nothing of a file a scope may not read reaches the tool's text,
 * artifact, description or schema, the graph's state, the retriever's documents, the trace or an
 * error message, and that the readable answer still comes back. See leak-scenarios.ts; the same
 * scenarios over the vector-store L1s are in leak-suite-stores.int.test.ts.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createLookupKnowledgeTool, KnowledgeBase, type LookupResult } from "../../src/index.js";
import { createTempDirs } from "../integration/helpers/integration-fixtures.js";
import { HashedWordEmbeddings } from "./hashed-embeddings.js";
import { DOC, writeLeakCorpus } from "./leak-corpus.js";
import { describeLeakSuite } from "./leak-scenarios.js";

describeLeakSuite({
  name: "the in-process HNSW graph (the default)",
  async open() {
    return { vectorStore: () => undefined, close: async () => {} };
  },
});

describe("labels and options that must not fail open", () => {
  const temp = createTempDirs("lookup-knowledge-leak-");
  afterAll(() => temp.cleanup());

  it.each([
    ["access: with no value", "access:"],
    ["access: ~", "access: ~"],
    ["access: null", "access: null"],
  ])(
    "keeps a file labelled %s from an anonymous caller, as it keeps one labelled with only blanks",
    async (_label, line) => {
      const corpusDir = join(await temp.make(), "corpus");
      await writeLeakCorpus(corpusDir, "initial");
      await writeFile(
        join(corpusDir, "zqblankpath-board.md"),
        `---\ntitle: Zqblanktitle Board Minutes\n${line}\n---\nThe zqblankbody board minutes.\n`,
      );
      const knowledgeBase = await KnowledgeBase.build({
        corpusDir,
        embeddings: new HashedWordEmbeddings(),
        onWarning: () => {},
      });
      const tool = createLookupKnowledgeTool({ knowledgeBase, access: { groups: [] }, tracePath: null });
      const message = await tool.invoke({
        type: "tool_call",
        id: "blank",
        name: tool.name,
        args: { query: "Zqblanktitle Board Minutes zqblankbody" },
      });
      const result = message.artifact as LookupResult;
      expect(result.evidence.map((block) => block.source)).not.toContain("zqblankpath-board.md#top");
      expect(String(message.content).replaceAll("Zqblanktitle Board Minutes zqblankbody", "")).not.toMatch(/zqblank/i);
    },
  );

  it("answers a fixed-scope retriever's domain that only hidden files hold exactly as a domain the base does not have", async () => {
    const corpusDir = join(await temp.make(), "corpus");
    await writeLeakCorpus(corpusDir, "initial");
    const knowledgeBase = await KnowledgeBase.build({
      corpusDir,
      embeddings: new HashedWordEmbeddings(),
      onWarning: () => {},
    });
    const outcome = (domain: string) => {
      try {
        knowledgeBase.asRetriever({ access: { groups: [] }, domain, tracePath: null });
        return "accepted";
      } catch (error) {
        return (error as Error).message.replaceAll(domain, "<domain>");
      }
    };
    // Accepting the one and refusing the other tells the caller the hidden domain exists.
    expect(outcome(DOC.hrSalary.domain!)).toBe(outcome("zqnosuchdomain"));
  });
});
