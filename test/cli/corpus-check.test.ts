import { cp, mkdir, mkdtemp, realpath, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { corpusWarnings, shellWord, shownPath, type CheckedIndex } from "../../src/cli/corpus-check.js";
import { loadCorpus } from "../../src/corpus/load-corpus.js";
import { recordedOrigin } from "../../src/knowledge-base/corpus-origin.js";

describe("corpusWarnings", () => {
  let dir: string;
  const kb = () => join(dir, "kb");
  const index = () => join(dir, "index");
  const none = () => join(dir, "no-default");

  /** What a knowledge base built from `kb/` and saved into `index/` would say about its corpus. */
  async function built(): Promise<CheckedIndex> {
    const corpus = await loadCorpus(kb());
    return {
      corpusOrigin: recordedOrigin({ root: await realpath(kb()) }, index()),
      indexedFiles: corpus.files,
      skipped: corpus.skipped,
    };
  }

  beforeEach(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), "lk-check-")));
    await mkdir(kb());
    await mkdir(index());
    await writeFile(join(kb(), "a.md"), "# A\n\nAlpha.\n");
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("says nothing for an up-to-date index asked about its own folder, under any spelling", async () => {
    const index = await built();
    expect(
      await corpusWarnings(index, { indexDir: join(dir, "index"), corpus: join(dir, "kb"), defaultCorpus: none() }),
    ).toEqual([]);
    expect(
      await corpusWarnings(index, {
        indexDir: join(dir, "index"),
        corpus: join(dir, "index", "..", "kb", "."),
        defaultCorpus: none(),
      }),
    ).toEqual([]);
  });

  it("checks the recorded folder when --corpus is absent and the default folder does not exist", async () => {
    const index = await built();
    await writeFile(join(kb(), "a.md"), "# A\n\nBeta.\n");
    const [warning, ...rest] = await corpusWarnings(index, {
      indexDir: "idx",
      corpus: undefined,
      defaultCorpus: none(),
    });
    expect(rest).toEqual([]);
    expect(warning).toContain("is out of date with");
    expect(warning).toContain('1 changed ("a.md")');
    expect(warning).toContain("--out idx` to update it.");
  });

  it("warns once when --corpus names another folder than the index was built from, and says how to fix either way", async () => {
    const index = await built();
    await cp(kb(), join(dir, "other"), { recursive: true });
    const warnings = await corpusWarnings(index, {
      indexDir: "idx",
      corpus: join(dir, "other"),
      defaultCorpus: none(),
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`was built from ${kb()}, not from ${join(dir, "other")}`);
    expect(warnings[0]).toContain(`lookup-knowledge index --corpus ${join(dir, "other")} --out idx`);
  });

  it("warns about the default corpus folder only when it exists and is another folder", async () => {
    const index = await built();
    await mkdir(join(dir, "corpus"));
    const warnings = await corpusWarnings(index, {
      indexDir: "idx",
      corpus: undefined,
      defaultCorpus: join(dir, "corpus"),
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("(the default corpus folder)");
  });

  it("finds the corpus through its path from the index when the project moved whole", async () => {
    const index = await built();
    await rename(dir, `${dir}-moved`);
    dir = `${dir}-moved`;
    expect(
      await corpusWarnings(index, { indexDir: join(dir, "index"), corpus: undefined, defaultCorpus: none() }),
    ).toEqual([]);
    expect(
      await corpusWarnings(index, { indexDir: join(dir, "index"), corpus: join(dir, "kb"), defaultCorpus: none() }),
    ).toEqual([]);
  });

  it("names the folder the corpus is in now, not its gone recorded path, when the project moved whole and another folder is asked for", async () => {
    const index = await built();
    await rename(dir, `${dir}-moved`);
    dir = `${dir}-moved`;
    await mkdir(join(dir, "corpus"));
    const [warning] = await corpusWarnings(index, {
      indexDir: join(dir, "index"),
      corpus: undefined,
      defaultCorpus: join(dir, "corpus"),
    });
    expect(warning).toContain(`was built from ${kb()}, not from ${join(dir, "corpus")}`);
    expect(warning).toContain(`or pass --corpus ${kb()}.`);
  });

  it("says that a --corpus that is not a folder is not one, instead of proposing to index it", async () => {
    const index = await built();
    const [warning, ...rest] = await corpusWarnings(index, {
      indexDir: "idx",
      corpus: join(dir, "typo"),
      defaultCorpus: none(),
    });
    expect(rest).toEqual([]);
    expect(warning).toBe(
      `Warning: --corpus ${join(dir, "typo")} is not a folder; the index in idx answers from ${kb()}, the folder it was built from.`,
    );
  });

  it("checks a folder the corpus moved to by content when the recorded one is gone, and says when it cannot check at all", async () => {
    const index = await built();
    await rename(kb(), join(dir, "kb2"));
    expect(
      await corpusWarnings(index, { indexDir: join(dir, "index"), corpus: join(dir, "kb2"), defaultCorpus: none() }),
    ).toEqual([]);
    const [gone] = await corpusWarnings(index, { indexDir: "idx", corpus: undefined, defaultCorpus: none() });
    expect(gone).toContain(
      `cannot tell whether the index in idx is up to date: ${kb()}, the folder it was built from, is gone`,
    );
  });

  it("checks an index that did not record its folder against the folder asked for, and never one built from ready-made chunks", async () => {
    const index = await built();
    await writeFile(join(kb(), "b.md"), "# B\n\nNew.\n");
    const old = { ...index, corpusOrigin: null };
    expect(await corpusWarnings(old, { indexDir: "idx", corpus: undefined, defaultCorpus: none() })).toEqual([]);
    expect((await corpusWarnings(old, { indexDir: "idx", corpus: kb(), defaultCorpus: none() }))[0]).toContain(
      '1 added ("b.md")',
    );
    expect(
      await corpusWarnings(
        { corpusOrigin: null, indexedFiles: null, skipped: [] },
        { indexDir: "idx", corpus: kb(), defaultCorpus: none() },
      ),
    ).toEqual([]);
  });
});

describe("shownPath and shellWord", () => {
  it("shows a path inside the working folder relative to it, others as they are", () => {
    expect(shownPath("/home/user/project/docs", "/home/user/project")).toBe("docs");
    expect(shownPath("/elsewhere/docs", "/home/user/project")).toBe("/elsewhere/docs");
    expect(shownPath("/home/user/project", "/home/user/project")).toBe("/home/user/project");
  });

  it("quotes a path with spaces or quotes for the shell", () => {
    expect(shellWord("docs/kb")).toBe("docs/kb");
    expect(shellWord("my docs")).toBe("'my docs'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
  });
});
