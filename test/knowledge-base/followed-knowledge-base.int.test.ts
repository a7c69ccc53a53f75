import { cp, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  createLookupKnowledgeTool,
  createRetrievalGraph,
  followKnowledgeBase,
  KnowledgeBase,
  type LookupResult,
  type ToolInvocationRecord,
} from "../../src/index.js";
import { createTempDirs, KB_DIR, readJsonl } from "../integration/helpers/integration-fixtures.js";

const MARKER_FILE = "billing/zz-release-codename.md";
const QUERY = "release codename";

/** A corpus folder: the fixture knowledge base plus one file naming the release codename `word`. */
async function writeCorpus(dir: string, word: string): Promise<void> {
  await cp(KB_DIR, dir, { recursive: true });
  await writeCodename(dir, word);
}

async function writeCodename(dir: string, word: string): Promise<void> {
  const text = `---\ntitle: Release Codename\ndomain: billing\nkeywords: [release codename]\n---\n# Release Codename\n\nThe release codename is ${word}. Every release codename question is answered here.\n`;
  await writeFile(join(dir, MARKER_FILE), text);
}

/** The codename words the lookup's evidence names. */
const codenamesIn = (result: LookupResult): string[] => [
  ...new Set(result.evidence.flatMap((block) => block.content.match(/\b(alphaword|omegaword)\b/g) ?? [])),
];

/** Resolves once `check` returns true, polling every 20 ms; rejects after `limitMs` (a hang guard, not a speed check). */
async function until(check: () => boolean | Promise<boolean>, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("the condition did not hold in time");
    await new Promise((done) => setTimeout(done, 20));
  }
}

describe("a knowledge base that follows its index folder", () => {
  const temp = createTempDirs("lookup-knowledge-follow-");
  afterAll(() => temp.cleanup());

  it("answers from a newly committed generation without a restart, and no lookup mixes generations or fails during the swap", async () => {
    const root = await temp.make();
    const corpus = join(root, "corpus");
    const index = join(root, "index");
    await writeCorpus(corpus, "alphaword");
    const built = await KnowledgeBase.build({ corpusDir: corpus, onWarning: () => {} });
    await built.save(index);
    const swaps: Array<{ generation: string | null; previous: string | null }> = [];
    const kb = await followKnowledgeBase(index, { pollMs: 25, onGeneration: (event) => swaps.push(event) });
    const first = kb.generation;
    expect(first).toMatch(/^gen-[0-9a-f]{16}$/);
    const tracePath = join(root, "trace.jsonl");
    const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath });

    let stop = false;
    const results: LookupResult[] = [];
    const failures: unknown[] = [];
    const worker = async () => {
      while (!stop) {
        try {
          const message = await lookup.invoke({
            type: "tool_call",
            id: `call-${results.length}`,
            name: lookup.name,
            args: { query: QUERY },
          });
          results.push(message.artifact as LookupResult);
        } catch (error) {
          failures.push(error);
        }
      }
    };
    const workers = [worker(), worker(), worker(), worker()];
    await until(() => results.length >= 8);

    await writeCodename(corpus, "omegaword");
    const { knowledgeBase: updated } = await (
      await KnowledgeBase.load(index)
    ).update({ corpusDir: corpus, onWarning: () => {} });
    await updated.save(index);
    await until(() => results.some((result) => codenamesIn(result).includes("omegaword")));
    const afterSwap = results.length;
    await until(() => results.length >= afterSwap + 8);
    stop = true;
    await Promise.all(workers);
    await (lookup as unknown as { close(): Promise<void> }).close?.();
    kb.close();

    expect(failures).toEqual([]);
    expect(swaps).toHaveLength(1);
    expect(swaps[0].previous).toBe(first);
    const second = swaps[0].generation;
    expect(second).not.toBe(first);
    expect(kb.generation).toBe(second);

    const lines = (await readJsonl(tracePath)) as ToolInvocationRecord[];
    const generationOf = new Map(lines.map((line) => [line.invocation_id, line.index_generation]));
    expect(lines).toHaveLength(results.length);
    for (const result of results) {
      const words = codenamesIn(result);
      // Each lookup's evidence comes wholly from the generation its trace line names.
      expect(words).toHaveLength(1);
      expect(generationOf.get(result.invocationId)).toBe(words[0] === "alphaword" ? first : second);
      expect(result.l1Status).toBe("ok");
    }
    // Once the new generation answered, no later lookup answers from the old one.
    const firstNew = results.findIndex((result) => codenamesIn(result).includes("omegaword"));
    expect(results.slice(firstNew + 4).every((result) => codenamesIn(result)[0] === "omegaword")).toBe(true);
    expect(kb.retiredInUse).toBe(0);
  });

  it("keeps serving the current generation and reports one warning when a committed generation does not load", async () => {
    const root = await temp.make();
    const corpus = join(root, "corpus");
    const index = join(root, "index");
    await writeCorpus(corpus, "alphaword");
    await (await KnowledgeBase.build({ corpusDir: corpus, onWarning: () => {} })).save(index);
    const warnings: string[] = [];
    const kb = await followKnowledgeBase(index, { pollMs: 25, onWarning: (line) => warnings.push(line) });
    const graph = createRetrievalGraph({ knowledgeBase: kb, tracePath: null });
    const first = kb.generation;

    // A manifest naming a generation folder that does not exist, committed as a writer would.
    const manifest = JSON.parse(await readFile(join(index, "manifest.json"), "utf8")) as { generation: string };
    manifest.generation = "gen-00000000000000ff";
    await writeFile(join(index, "manifest.next"), JSON.stringify(manifest));
    await rename(join(index, "manifest.next"), join(index, "manifest.json"));
    await until(() => warnings.length > 0);
    await kb.refresh();

    const { result } = await graph.invoke({ query: QUERY });
    kb.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("the current one keeps serving");
    expect(kb.generation).toBe(first);
    expect(codenamesIn(result as LookupResult)).toEqual(["alphaword"]);
  });

  it("refuses a negative poll interval with INVALID_OPTION", async () => {
    await expect(followKnowledgeBase(join(await temp.make(), "missing"), { pollMs: -1 })).rejects.toMatchObject({
      code: "INVALID_OPTION",
    });
  });
});

describe("the retriever of a followed knowledge base", () => {
  const temp = createTempDirs("lookup-knowledge-follow-retriever-");
  afterAll(() => temp.cleanup());

  it("returns documents of the new generation after a save, from the same retriever", async () => {
    const root = await temp.make();
    const corpus = join(root, "corpus");
    const index = join(root, "index");
    await writeCorpus(corpus, "alphaword");
    await (await KnowledgeBase.build({ corpusDir: corpus, onWarning: () => {} })).save(index);
    const kb = await followKnowledgeBase(index, { pollMs: 0 });
    const retriever = kb.asRetriever({ tracePath: null });
    const before = kb.generation;
    expect((await retriever.invoke(QUERY)).map((doc) => doc.pageContent).join(" ")).toContain("alphaword");
    await writeCodename(corpus, "omegaword");
    const { knowledgeBase } = await (
      await KnowledgeBase.load(index)
    ).update({ corpusDir: corpus, onWarning: () => {} });
    await knowledgeBase.save(index);
    // With polling off, the file watcher or refresh() (whichever comes first) loads the new generation.
    await kb.refresh();
    expect(kb.generation).not.toBe(before);
    const text = (await retriever.invoke(QUERY)).map((doc) => doc.pageContent).join(" ");
    kb.close();
    expect(text).toContain("omegaword");
    expect(text).not.toContain("alphaword");
  });
});
