import { access } from "node:fs/promises";
import { join } from "node:path";
import { Document } from "@langchain/core/documents";
import matter from "gray-matter";
import { afterAll, describe, expect, it } from "vitest";
import { loadCorpus } from "../../src/corpus/load-corpus.js";
import { resolveDocumentOptions } from "../../src/documents/document-options.js";
import { readDocuments } from "../../src/documents/read-documents.js";
import { planDocumentSync } from "../../src/documents/sync-documents-plan.js";
import { createTempCorpora } from "./helpers/temp-corpus.js";

const temp = createTempCorpora("lk-code-");
const globals = globalThis as Record<string, unknown>;
const flags: string[] = [];
afterAll(async () => {
  for (const flag of flags) delete globals[flag];
  await temp.cleanup();
});

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * Frontmatter written to run code in each language gray-matter knows or might be asked for: each
 * sets a global and writes a proof file if anything runs it. `constructor` is a name gray-matter's
 * engine lookup would find on every object.
 */
function payloads(dir: string, tag: string): { language: string; flag: string; proof: string; text: string }[] {
  const cases = (language: string, code: (flag: string, proof: string) => string) => {
    const flag = `__lkRan_${tag}_${language}`;
    const proof = join(dir, `proof-${tag}-${language}.txt`);
    flags.push(flag);
    return { language, flag, proof, text: `---${language}\n${code(flag, JSON.stringify(proof))}\n---\nBody of ${language}.\n` };
  };
  const js = (flag: string, proof: string) => `{ title: (globalThis.${flag} = true, require("node:fs").writeFileSync(${proof}, "ran"), "x") }`;
  const coffee = (flag: string, proof: string) => `title: do -> globalThis.${flag} = true; require("node:fs").writeFileSync(${proof}, "ran")`;
  return [
    ...["js", "javascript", "JS", "Javascript"].map((language) => cases(language, js)),
    ...["coffee", "coffeescript", "cson"].map((language) => cases(language, coffee)),
    cases("toml", (flag, proof) => `title = "x"\nrun = '''globalThis.${flag} = true; require("node:fs").writeFileSync(${proof}, "ran")'''`),
    cases("python", (flag, proof) => `import os; os.system("touch " + ${proof}); ${flag} = True`),
    cases("constructor", js),
  ];
}

describe("frontmatter written to run code", () => {
  it("runs under gray-matter's default engines, so the payloads below are live", async () => {
    const dir = await temp.make();
    for (const { language, flag, proof, text } of payloads(dir, "control").filter(({ language }) => /^(js|javascript)$/i.test(language))) {
      matter(text, {});
      expect(globals[flag], language).toBe(true);
      expect(await exists(proof), language).toBe(true);
    }
  });

  it("is skipped in a corpus folder, naming the file and the language, and has no effect", async () => {
    const dir = await temp.make();
    const cases = payloads(dir, "corpus");
    await temp.write(dir, { ...Object.fromEntries(cases.map(({ language, text }) => [`${language}.md`, text])), "good.md": "---\ntitle: Good\n---\nGood body.\n" });

    const corpus = await loadCorpus(dir);

    expect(corpus.chunks.map((chunk) => chunk.file)).toEqual(["good.md"]);
    expect(corpus.skipped.map(({ file }) => file).sort()).toEqual(cases.map(({ language }) => `${language}.md`).sort());
    for (const { language, flag, proof } of cases) {
      expect(corpus.skipped.find(({ file }) => file === `${language}.md`)?.reason, language).toMatch(new RegExp(`^frontmatter language "${language}" is not accepted`));
      expect(globals[flag], language).toBeUndefined();
      expect(await exists(proof), language).toBe(false);
    }
  });

  it("is skipped in a LangChain Markdown document, naming the source and the language, and has no effect", async () => {
    const dir = await temp.make();
    const cases = payloads(dir, "document");
    const settings = resolveDocumentOptions();
    const docs = cases.map(({ language, text }) => new Document({ pageContent: text, metadata: { source: `${language}.md` } }));

    const { corpus } = await planDocumentSync(await readDocuments(docs, settings), new Map(), "incremental", settings);

    expect(corpus.chunks).toEqual([]);
    for (const { language, flag, proof } of cases) {
      expect(corpus.skipped.find(({ file }) => file === `${language}.md`)?.reason, language).toMatch(new RegExp(`^frontmatter language "${language}" is not accepted`));
      expect(globals[flag], language).toBeUndefined();
      expect(await exists(proof), language).toBe(false);
    }
  });
});
