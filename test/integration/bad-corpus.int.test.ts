import { access, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createRetrievalGraph, KnowledgeBase, type IndexManifest } from "../../src/index.js";
import { createTempDirs, KB_BAD_DIR } from "./helpers/integration-fixtures.js";

/** The files of test/fixtures/kb-bad that must be skipped, with what their reason must say. */
const BAD_FILES: Record<string, RegExp> = {
  "broken-yaml.md": /malformed frontmatter/,
  "js-frontmatter.md": /frontmatter language "js" is not accepted/,
  "never-closed.md": /never closed/,
  "notes/latin1-encoded.md": /invalid UTF-8/,
  "only-frontmatter.md": /no text/,
  "wrong-field-type.md": /"keywords"/,
};

/** The file `js-frontmatter.md` would write if its frontmatter were run as code. */
const JS_PROOF = join(tmpdir(), "lookup-knowledge-kb-bad-js-ran.txt");

describe("KnowledgeBase.build over a corpus with bad files", () => {
  const temp = createTempDirs();
  const warnings: string[] = [];
  let consoleWarn: ReturnType<typeof vi.spyOn>;
  let kb: KnowledgeBase;

  beforeAll(async () => {
    consoleWarn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await rm(JS_PROOF, { force: true });
    kb = await KnowledgeBase.build({ corpusDir: KB_BAD_DIR, onWarning: (message) => warnings.push(message) });
  });
  afterAll(async () => {
    consoleWarn.mockRestore();
    await temp.cleanup();
  });

  it("has a fixture file that really is invalid UTF-8", async () => {
    const bytes = await readFile(join(KB_BAD_DIR, "notes/latin1-encoded.md"));
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(bytes)).toThrow(TypeError);
  });

  it("skips each bad file once, with a reason that says what is wrong", () => {
    expect(kb.skipped.map((skip) => skip.file)).toEqual(Object.keys(BAD_FILES).sort());
    for (const { file, reason } of kb.skipped) expect(reason, file).toMatch(BAD_FILES[file]);
  });

  it("sends exactly one warning per skipped file, naming the file, and none to the console", () => {
    expect(warnings).toHaveLength(kb.skipped.length);
    for (const { file } of kb.skipped) {
      expect(
        warnings.filter((message) => message.includes(file)),
        file,
      ).toHaveLength(1);
    }
    expect(consoleWarn).not.toHaveBeenCalled();
  });

  it("never runs the code of a ---js frontmatter", async () => {
    expect(
      await access(JS_PROOF).then(
        () => true,
        () => false,
      ),
    ).toBe(false);
  });

  it("prints nothing by default: without onWarning the skips are only listed in skipped", async () => {
    const silent = await KnowledgeBase.build({ corpusDir: KB_BAD_DIR, embeddings: null });

    expect(silent.skipped).toEqual(kb.skipped);
    expect(consoleWarn).not.toHaveBeenCalled();
  });

  it("indexes the good files, including a YAML date as a title and a file with CR-only line endings", async () => {
    expect(new Set(kb.chunks.map((chunk) => chunk.file))).toEqual(
      new Set(["good-onboarding.md", "notes/cr-line-endings.md", "notes/dated-title.md", "notes/good-expenses.md"]),
    );
    expect(kb.chunks.find((chunk) => chunk.file === "notes/dated-title.md")?.title).toBe("2024-01-01");
    expect(
      kb.chunks.filter((chunk) => chunk.file === "notes/cr-line-endings.md").map((chunk) => chunk.breadcrumb),
    ).toEqual([["Desk Booking"], ["Desk Booking", "Lockers"]]);
    const graph = createRetrievalGraph({ knowledgeBase: kb, tracePath: null });
    const laptop = (await graph.invoke({ query: "Anchorage MDM laptop encryption" })).result;
    expect(laptop?.primary?.source).toMatch(/^good-onboarding\.md#/);
    const travel = (await graph.invoke({ query: "travel expenses receipts" })).result;
    expect(travel?.primary?.source).toBe("notes/good-expenses.md#top");
  });

  it("never returns text from a skipped file", async () => {
    const graph = createRetrievalGraph({ knowledgeBase: kb, tracePath: null });
    for (const query of [
      "quokka",
      "wombat",
      "numbat",
      "bilby",
      "potoroo",
      "placeholder page",
      "Latin-1 budget offsite",
    ]) {
      const result = (await graph.invoke({ query })).result;
      const files = result?.evidence.map((block) => block.source.split("#")[0]) ?? [];
      for (const file of Object.keys(BAD_FILES)) expect(files, query).not.toContain(file);
    }
  });

  it("lists the skipped files in the saved manifest and restores them on load", async () => {
    const dir = await temp.make();
    await kb.save(dir);
    const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as IndexManifest;
    expect(manifest.skipped).toEqual(kb.skipped);
    expect(manifest.fileCount).toBe(10);
    expect(manifest.chunkCount).toBe(kb.chunks.length);
    const loaded = await KnowledgeBase.load(dir);
    expect(loaded.skipped).toEqual(kb.skipped);
  });
});
