import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLookupKnowledgeTool, KnowledgeBase, type LookupResult } from "../../src/index.js";
import { createTempDirs } from "./helpers/integration-fixtures.js";

describe("a corpus folder without Markdown files", () => {
  const temp = createTempDirs();
  let corpusDir: string;

  beforeAll(async () => {
    corpusDir = await temp.make();
    await writeFile(join(corpusDir, "notes.txt"), "Plain text is not part of the knowledge base: rollback.\n");
    await mkdir(join(corpusDir, "empty-subfolder"));
  });
  afterAll(() => temp.cleanup());

  it.each([
    ["the default embedder", undefined],
    ["no embeddings", null],
  ] as const)("builds with %s and answers with no evidence instead of throwing", async (_label, embeddings) => {
    const warnings: string[] = [];
    const kb = await KnowledgeBase.build({ corpusDir, embeddings, onWarning: (message) => warnings.push(message) });
    expect(kb.chunks).toEqual([]);
    expect(kb.domains).toEqual([]);
    expect(kb.skipped).toEqual([]);
    expect(warnings).toEqual([]);

    const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: null });
    const message = await lookup.invoke({
      type: "tool_call",
      id: "empty",
      name: lookup.name,
      args: { query: "how do I roll back a release?" },
    });
    const result = message.artifact as LookupResult;
    expect(result.evidence).toEqual([]);
    expect(result.primary).toBeNull();
    expect(result.retrievalLayer).toBe("none");
    expect(result.relevance.level).toBe("none");
    expect(String(message.content)).toMatch(/^NO EVIDENCE/);
  });

  it("saves and loads the empty index, which still answers with no evidence", async () => {
    const kb = await KnowledgeBase.build({ corpusDir, onWarning: () => {} });
    const dir = await temp.make();
    await kb.save(dir);
    const loaded = await KnowledgeBase.load(dir);
    expect(loaded.fingerprint).toBe(kb.fingerprint);
    const lookup = createLookupKnowledgeTool({ knowledgeBase: loaded, tracePath: null });
    const message = await lookup.invoke({
      type: "tool_call",
      id: "empty",
      name: lookup.name,
      args: { query: "rollback", domain: "billing" },
    });
    const result = message.artifact as LookupResult;
    expect(result.retrievalLayer).toBe("none");
    expect(result.relevance.level).toBe("none");
    expect(result.evidenceCount).toBe(0);
  });
});
