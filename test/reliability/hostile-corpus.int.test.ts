import { access, chmod, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CorpusOptions } from "../../src/corpus/corpus-options.js";
import { createLookupKnowledgeTool, KnowledgeBase, type IndexManifest, type LookupResult } from "../../src/index.js";
import { unprivilegedSkipReason } from "../helpers/unprivileged.js";
import { runCliUnprivileged, RUNNING_AS_ROOT, type CliRun } from "./helpers/corpus-cli.js";
import { createHostileCorpus, type GoodCase, type HostileCorpus } from "./helpers/corpus-hostile-files.js";
import { recordFigures } from "./helpers/figures.js";

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe("indexing a hostile corpus folder", () => {
  let corpus: HostileCorpus;
  let kb: KnowledgeBase | undefined;
  let buildError: unknown;
  const warnings: string[] = [];
  /** Builds, CLI runs and tool calls that threw, crashed or exited non-zero. */
  let crashes = 0;

  async function lookup(knowledgeBase: KnowledgeBase, query: string): Promise<LookupResult | null> {
    const tool = createLookupKnowledgeTool({ knowledgeBase, tracePath: null });
    try {
      const message = await tool.invoke({ type: "tool_call", id: query, name: tool.name, args: { query } });
      return message.artifact as LookupResult;
    } catch {
      crashes++;
      return null;
    }
  }

  const filesIn = (result: LookupResult | null) => (result?.evidence ?? []).map((block) => block.source.split("#")[0]);

  /** The files the in-process build must index: unreadable ones too when root reads them anyway. */
  const goodInProcess = (): GoodCase[] => [
    ...corpus.good,
    ...(RUNNING_AS_ROOT ? Object.values(corpus.unreadable).flatMap(({ good }) => (good ? [good] : [])) : []),
  ];

  beforeAll(async () => {
    corpus = await createHostileCorpus();
    try {
      kb = await KnowledgeBase.build({ corpusDir: corpus.dir, onWarning: (message) => warnings.push(message) });
    } catch (error) {
      buildError = error;
      crashes++;
    }
  });

  afterAll(async () => {
    recordFigures({ scenario: "hostile corpus files", inputsTried: corpus.inputsTried, crashes });
    await corpus.cleanup();
  });

  it("finishes the build and runs no code from any frontmatter", async () => {
    expect(buildError).toBeUndefined();
    expect(kb).toBeDefined();
    expect(corpus.proofFiles.length).toBeGreaterThanOrEqual(8);
    for (const proof of corpus.proofFiles) expect(await exists(proof), proof).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("lists every bad file in skipped, once, with the reason that says what is wrong", () => {
    const skipped = new Map(kb?.skipped.map(({ file, reason }) => [file, reason]));
    const expected = {
      ...corpus.skipped,
      ...(RUNNING_AS_ROOT
        ? {}
        : Object.fromEntries(Object.entries(corpus.unreadable).map(([file, { reason }]) => [file, reason]))),
    };

    expect([...skipped.keys()].sort()).toEqual(Object.keys(expected).sort());
    for (const [file, reason] of Object.entries(expected)) expect(skipped.get(file), file).toMatch(reason);
    expect(warnings).toHaveLength(kb?.skipped.length ?? -1);
  });

  it("indexes every good file, and the tool finds each one by its own word", async () => {
    const indexed = new Set(kb?.chunks.map((chunk) => chunk.file));
    for (const { file, word } of goodInProcess()) {
      expect(indexed.has(file), file).toBe(true);
      const result = kb ? await lookup(kb, word) : null;
      expect(result?.primary?.source.split("#")[0], word).toBe(file);
    }
  });

  it("silently leaves out hidden folders, dot-files and node_modules", async () => {
    const ignoredFiles = corpus.ignored.map(({ file }) => file);
    expect(kb?.chunks.filter((chunk) => ignoredFiles.includes(chunk.file))).toEqual([]);
    expect(
      kb?.skipped.filter(({ file }) =>
        file.split("/").some((segment) => segment.startsWith(".") || segment === "node_modules"),
      ),
    ).toEqual([]);
    for (const { word } of corpus.ignored) {
      const result = kb ? await lookup(kb, word) : null;
      expect(result, word).not.toBeNull();
      for (const file of filesIn(result)) expect(ignoredFiles, word).not.toContain(file);
    }
  });

  it("reads hidden folders or leaves out more names when KnowledgeBase.build's corpus option says so", async () => {
    const build = async (corpusOptions: CorpusOptions) => {
      try {
        return await KnowledgeBase.build({ corpusDir: corpus.dir, embeddings: null, corpus: corpusOptions });
      } catch (error) {
        crashes++;
        throw error;
      }
    };

    const everything = await build({ includeHidden: true, exclude: [] });
    const indexed = new Set(everything.chunks.map((chunk) => chunk.file));
    for (const { file } of corpus.ignored) expect(indexed.has(file), file).toBe(true);

    const narrowed = await build({ exclude: ["frontmatter", "links"] });
    const touched = [...narrowed.chunks.map((chunk) => chunk.file), ...narrowed.skipped.map(({ file }) => file)];
    expect(touched.filter((file) => /^(frontmatter|links)\//.test(file))).toEqual([]);
    expect(touched).toContain("headings/repeated-50k.md");
  });

  it("keeps the pathological headings as ordinary sections with bounded, unique slugs", () => {
    const chunks = kb?.chunks ?? [];
    const sources = chunks.map((chunk) => chunk.source);
    expect(new Set(sources).size).toBe(sources.length);
    for (const chunk of chunks)
      expect(chunk.source.length - chunk.file.length - 1, chunk.file).toBeLessThanOrEqual(100 + "-99999".length);
    expect(sources).toContain("headings/repeated-50k.md#step-49999");
    expect(chunks.find((chunk) => chunk.file === "headings/spaces-20k.md")?.breadcrumb).toEqual([
      `Spaced${" ".repeat(20_000)}x`,
    ]);
    expect(chunks.find((chunk) => chunk.file === "frontmatter/date-title.md")?.title).toBe("2024-01-01");
  });

  it("indexes and answers the same corpus through the CLI, unprivileged, skipping the unreadable files too", async (ctx) => {
    const cannot = unprivilegedSkipReason();
    if (cannot !== null) ctx.skip(cannot);
    const outParent = join(corpus.root, "cli");
    await mkdir(outParent);
    await chmod(outParent, 0o777);
    const out = join(outParent, "index");
    const runs: CliRun[] = [];
    const run = async (args: string[]) => {
      const result = await runCliUnprivileged(args);
      runs.push(result);
      if (result.code !== 0) crashes++;
      return result;
    };

    const index = await run(["index", "--corpus", corpus.dir, "--out", out]);
    expect(index.code, index.stderr).toBe(0);
    const manifest = JSON.parse(await readFile(join(out, "manifest.json"), "utf8")) as IndexManifest;
    const expected = {
      ...corpus.skipped,
      ...Object.fromEntries(Object.entries(corpus.unreadable).map(([file, { reason }]) => [file, reason])),
    };
    expect(manifest.skipped.map(({ file }) => file).sort()).toEqual(Object.keys(expected).sort());
    for (const { file, reason } of manifest.skipped) expect(reason, file).toMatch(expected[file]);
    expect(index.stderr.split("\n").filter((line) => line.includes("skipped"))).toHaveLength(
      manifest.skipped.length + 1,
    );

    for (const { file, word } of corpus.good.filter((_, i) => i % 4 === 0)) {
      const query = await run(["query", word, "--index", out, "--corpus", corpus.dir, "--json", "--no-trace"]);
      expect(query.code, query.stderr).toBe(0);
      expect((JSON.parse(query.stdout) as LookupResult).primary?.source.split("#")[0], word).toBe(file);
    }
    for (const proof of corpus.proofFiles) expect(await exists(proof), proof).toBe(false);
    expect(runs.every((result) => result.signal === null && !/^\s+at /m.test(result.stderr))).toBe(true);
  });

  it("had no crash, hang or failed run in the whole scenario", () => {
    expect(crashes).toBe(0);
  });
});
