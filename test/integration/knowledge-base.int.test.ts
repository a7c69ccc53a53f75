import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLookupKnowledgeTool, createRetrievalGraph, KnowledgeBase, type LookupResult } from "../../src/index.js";
import { createTempDirs, KB_DIR } from "./helpers/integration-fixtures.js";

const QUERIES = [
  "how do I roll back a bad deploy with Helmsman",
  "invoice run rollback wrong amounts",
  "rotate an API key",
  "frozen account unpaid invoice",
];

async function markdownFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1).split("\\").join("/"))
    .sort();
}

describe("KnowledgeBase.build over the fixture corpus", () => {
  const temp = createTempDirs();
  let kb: KnowledgeBase;

  beforeAll(async () => {
    kb = await KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} });
  });
  afterAll(() => temp.cleanup());

  it("gives every chunk the source `<relative path>#<heading slug>` and a unique one", async () => {
    const files = await markdownFiles(KB_DIR);
    expect(files).toHaveLength(11);
    for (const chunk of kb.chunks) {
      const [file, slug] = chunk.source.split("#");
      expect(file).toBe(chunk.file);
      expect(files).toContain(chunk.file);
      expect(slug).toMatch(/^[a-z0-9-]+$/);
    }
    expect(new Set(kb.chunks.map((chunk) => chunk.source)).size).toBe(kb.chunks.length);
    expect(new Set(kb.chunks.map((chunk) => chunk.file))).toEqual(new Set(files));
  });

  it("keeps the heading path of nested sections as the breadcrumb, under the document title", () => {
    const bySource = new Map(kb.chunks.map((chunk) => [chunk.source, chunk]));
    expect(bySource.get("deploy/service-rollback.md#top")?.breadcrumb).toEqual(["Service Rollback"]);
    expect(bySource.get("deploy/service-rollback.md#rolling-back-with-helmsman")?.breadcrumb).toEqual(["Service Rollback", "Rolling Back with Helmsman"]);
    expect(bySource.get("deploy/service-rollback.md#database-changes")?.breadcrumb).toEqual([
      "Service Rollback",
      "Rolling Back with Helmsman",
      "Database Changes",
    ]);
    expect(bySource.get("billing/invoice-run-rollback.md#when-to-roll-back-a-batch")?.breadcrumb).toEqual([
      "Invoice Run Rollback",
      "When to Roll Back a Batch",
    ]);
  });

  it("reads `category` and `tags` as the domain and keywords", () => {
    const pipeline = kb.chunks.find((chunk) => chunk.file === "deploy/build-pipeline.md");
    expect(pipeline?.meta.domain).toBe("deployment");
    expect(pipeline?.meta.keywords).toEqual(["ci", "pipeline", "container image"]);
  });

  it("lists the three domains of the corpus, sorted, and leaves out the file without one", () => {
    expect(kb.domains).toEqual(["access", "billing", "deployment"]);
    expect(kb.chunks.some((chunk) => chunk.file === "glossary.md" && chunk.meta.domain === undefined)).toBe(true);
    expect(kb.skipped).toEqual([]);
  });

  it("answers the same top sources with the same fingerprint after save and load", async () => {
    const dir = await temp.make();
    await kb.save(dir);
    const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as { fingerprint: string; chunkCount: number; domains: string[] };
    expect(manifest.fingerprint).toBe(kb.fingerprint);
    expect(manifest.chunkCount).toBe(kb.chunks.length);
    expect(manifest.domains).toEqual(["access", "billing", "deployment"]);

    const loaded = await KnowledgeBase.load(dir);
    expect(loaded.fingerprint).toBe(kb.fingerprint);
    expect(loaded.chunks).toEqual(kb.chunks);
    expect(loaded.domains).toEqual(kb.domains);

    const built = createRetrievalGraph({ knowledgeBase: kb, tracePath: null });
    const reloaded = createRetrievalGraph({ knowledgeBase: loaded, tracePath: null });
    for (const query of QUERIES) {
      const a = (await built.invoke({ query })).result;
      const b = (await reloaded.invoke({ query })).result;
      expect(a?.l1Status, query).toBe("ok");
      expect(b?.l1Status, query).toBe("ok");
      expect(a?.evidence.length, query).toBeGreaterThan(0);
      expect(b?.evidence.map((block) => block.source), query).toEqual(a?.evidence.map((block) => block.source));
      expect(b?.evidence.map((block) => block.retrievalLayer), query).toEqual(a?.evidence.map((block) => block.retrievalLayer));
    }
  });

  it("finds the document a query is about as the primary evidence, through the tool", async () => {
    const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: null });
    const expected: Record<string, string> = {
      "how do I roll back a bad deploy with Helmsman": "deploy/service-rollback.md",
      "invoice run rollback wrong amounts": "billing/invoice-run-rollback.md",
      "rotate an API key": "access/api-key-rotation.md",
    };
    for (const [query, file] of Object.entries(expected)) {
      const message = await lookup.invoke({ type: "tool_call", id: "kb-test", name: lookup.name, args: { query } });
      const result = message.artifact as LookupResult;
      expect(result.primary?.source.split("#")[0], query).toBe(file);
      expect(String(message.content), query).toContain(`source: ${result.primary?.source}`);
    }
  });
});

describe("KnowledgeBase.fromChunks", () => {
  it("rejects two chunks with the same source, naming it", async () => {
    const chunk = { source: "a#top", file: "a", breadcrumb: [], content: "text", meta: { keywords: [], entities: [], aliases: [] } };
    await expect(KnowledgeBase.fromChunks([chunk, { ...chunk, content: "other" }], { embeddings: null })).rejects.toThrow(/two chunks share the source "a#top"/);
  });
});
