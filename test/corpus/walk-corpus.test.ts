import { chmod, mkdir, rm, symlink } from "node:fs/promises";
import { unprivilegedSkipReason } from "../helpers/unprivileged.js";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadCorpus } from "../../src/corpus/load-corpus.js";
import { readCorpusFile } from "../../src/corpus/read-corpus-file.js";
import { walkCorpus } from "../../src/corpus/walk-corpus.js";
import { LookupKnowledgeError } from "../../src/errors.js";
import { createTempCorpora, loadCorpusAsUnprivileged } from "./helpers/temp-corpus.js";

const temp = createTempCorpora("lk-walk-");
afterAll(() => temp.cleanup());

const doc = (text: string) => `---\ntitle: ${text}\n---\n${text} body.\n`;
const filesOf = (corpus: { chunks: { file: string }[] }) => [...new Set(corpus.chunks.map((chunk) => chunk.file))];

async function corpusWith(files: Record<string, string>): Promise<string> {
  const dir = await temp.make();
  await temp.write(dir, files);
  return dir;
}

describe("walkCorpus and loadCorpus: which files are read", () => {
  it("lists Markdown files in sorted path order, whatever order they were created in", async () => {
    const dir = await corpusWith({ "z.md": doc("z"), "a/b.md": doc("ab"), "a.md": doc("a"), "a-b/c.markdown": doc("abc"), "B.MD": doc("B"), "notes.txt": "no" });

    const listing = await walkCorpus(dir);

    expect(listing.files.map((file) => file.file)).toEqual(["B.MD", "a-b/c.markdown", "a.md", "a/b.md", "z.md"]);
    expect(filesOf(await loadCorpus(dir))).toEqual(["B.MD", "a-b/c.markdown", "a.md", "a/b.md", "z.md"]);
  });

  it("silently leaves out .git/, node_modules/, other dot-folders and dot-files", async () => {
    const dir = await corpusWith({
      "kept.md": doc("kept"),
      ".git/description.md": doc("git"),
      "node_modules/pkg/README.md": doc("module"),
      "docs/node_modules/x.md": doc("nested module"),
      ".hidden/secret.md": doc("hidden"),
      "docs/.drafts/draft.md": doc("draft"),
      ".env.md": doc("dotfile"),
      "docs/page.md": doc("page"),
    });

    const corpus = await loadCorpus(dir);

    expect(filesOf(corpus)).toEqual(["docs/page.md", "kept.md"]);
    expect(corpus.skipped).toEqual([]);
    expect(corpus.fileCount).toBe(2);
  });

  it("indexes hidden folders with includeHidden, still leaving out the excluded names", async () => {
    const dir = await corpusWith({ "kept.md": doc("kept"), ".hidden/a.md": doc("hidden"), ".git/b.md": doc("git"), "node_modules/c.md": doc("module") });

    expect(filesOf(await loadCorpus(dir, { includeHidden: true }))).toEqual([".hidden/a.md", "kept.md"]);
    expect(filesOf(await loadCorpus(dir, { includeHidden: true, exclude: [] }))).toEqual([".git/b.md", ".hidden/a.md", "kept.md", "node_modules/c.md"]);
  });

  it("leaves out every file and folder whose name is in exclude, at any depth", async () => {
    const dir = await corpusWith({ "kept.md": doc("kept"), "drafts/a.md": doc("a"), "team/drafts/b.md": doc("b"), "team/c.md": doc("c"), "team/TODO.md": doc("todo") });

    expect(filesOf(await loadCorpus(dir, { exclude: ["drafts", "TODO.md"] }))).toEqual(["kept.md", "team/c.md"]);
  });

  it("refuses an exclude entry that is not a plain name", async () => {
    const dir = await corpusWith({ "kept.md": doc("kept") });

    await expect(loadCorpus(dir, { exclude: ["a/b"] })).rejects.toMatchObject({ code: "INVALID_OPTION" });
    await expect(loadCorpus(dir, { maxFileBytes: 0 })).rejects.toMatchObject({ code: "INVALID_OPTION" });
  });

  it("follows symlinked files and folders that stay inside the corpus folder", async () => {
    const dir = await corpusWith({ "real/page.md": doc("page"), "real/other.md": doc("other") });
    await symlink("real", join(dir, "linked-folder"));
    await symlink("real/page.md", join(dir, "linked-page.md"));

    const corpus = await loadCorpus(dir);

    expect(filesOf(corpus)).toEqual(["linked-folder/other.md", "linked-folder/page.md"]);
    expect(corpus.skipped).toEqual([
      { file: "linked-page.md", reason: 'same file as "linked-folder/page.md" (reached through a symlink); indexed once' },
      { file: "real", reason: 'same folder as "linked-folder" (reached through a symlink); indexed once' },
    ]);
  });

  it("indexes a file reached by two paths once, under the first path in sorted order", async () => {
    const dir = await corpusWith({ "b/page.md": doc("page") });
    await symlink("b/page.md", join(dir, "a-link.md"));

    const corpus = await loadCorpus(dir);

    expect(filesOf(corpus)).toEqual(["a-link.md"]);
    expect(corpus.skipped).toEqual([{ file: "b/page.md", reason: 'same file as "a-link.md" (reached through a symlink); indexed once' }]);
    expect(corpus.fileCount).toBe(2);
  });

  it("skips symlinks that leave the corpus folder, and broken ones, with a reason", async () => {
    const outside = await corpusWith({ "secret.md": doc("secret"), "folder/inner.md": doc("inner") });
    const dir = await corpusWith({ "kept.md": doc("kept") });
    await symlink(join(outside, "secret.md"), join(dir, "escape.md"));
    await symlink(join(outside, "folder"), join(dir, "escape-folder"));
    await symlink("/dev/zero", join(dir, "zero.md"));
    await symlink("missing.md", join(dir, "dangling.md"));
    await symlink(join(outside, "secret.md"), join(dir, "not-markdown.txt"));

    const corpus = await loadCorpus(dir);

    expect(filesOf(corpus)).toEqual(["kept.md"]);
    expect(corpus.skipped).toEqual([
      { file: "dangling.md", reason: expect.stringMatching(/^broken symlink/) },
      { file: "escape-folder", reason: "symlink to a folder outside the corpus folder; not followed" },
      { file: "escape.md", reason: "symlink pointing outside the corpus folder; not followed" },
      { file: "zero.md", reason: "symlink pointing outside the corpus folder; not followed" },
    ]);
  });

  it("does not loop on symlink cycles", async () => {
    const dir = await corpusWith({ "a/page.md": doc("page") });
    await symlink("..", join(dir, "a/up"));
    await symlink(".", join(dir, "self"));
    await symlink("loop-b", join(dir, "loop-a.md"));
    await symlink("loop-a.md", join(dir, "loop-b"));

    const corpus = await loadCorpus(dir);

    expect(filesOf(corpus)).toEqual(["a/page.md"]);
    expect(corpus.skipped).toEqual([
      { file: "a/up", reason: 'same folder as "." (reached through a symlink); indexed once' },
      { file: "loop-a.md", reason: expect.stringMatching(/^broken symlink/) },
      { file: "self", reason: 'same folder as "." (reached through a symlink); indexed once' },
    ]);
  });

  it("skips FIFOs and sockets named *.md with a reason, without blocking", async () => {
    const dir = await corpusWith({ "kept.md": doc("kept") });
    temp.fifo(join(dir, "pipe.md"));
    await temp.socket(join(dir, "sock.md"));
    await mkdir(join(dir, "sub"));
    temp.fifo(join(dir, "sub/real-fifo"));
    await symlink("real-fifo", join(dir, "sub/linked-fifo.md"));

    const corpus = await loadCorpus(dir);

    expect(filesOf(corpus)).toEqual(["kept.md"]);
    expect(corpus.skipped).toEqual([
      { file: "pipe.md", reason: "not a regular file (a FIFO)" },
      { file: "sock.md", reason: "not a regular file (a socket)" },
      { file: "sub/linked-fifo.md", reason: "not a regular file (a FIFO)" },
    ]);
  });

  it("skips an unreadable file with a reason and indexes the rest", async (ctx) => {
    const cannot = unprivilegedSkipReason();
    if (cannot !== null) ctx.skip(cannot);
    const dir = await corpusWith({ "a.md": doc("a"), "locked.md": doc("locked"), "z.md": doc("z"), "closed/inner.md": doc("inner") });
    await Promise.all([chmod(join(dir, "locked.md"), 0o000), chmod(join(dir, "closed"), 0o000)]);

    const corpus = await loadCorpusAsUnprivileged(dir).finally(() => Promise.all([chmod(join(dir, "locked.md"), 0o644), chmod(join(dir, "closed"), 0o755)]));

    expect(filesOf(corpus)).toEqual(["a.md", "z.md"]);
    expect(corpus.skipped).toEqual([
      { file: "closed", reason: "folder cannot be read: permission denied" },
      { file: "locked.md", reason: "cannot be read: permission denied" },
    ]);
  });

  it("skips a file larger than maxFileBytes", async () => {
    const dir = await corpusWith({ "small.md": doc("s"), "big.md": doc("b".repeat(5_000)) });

    const corpus = await loadCorpus(dir, { maxFileBytes: 1_000 });

    expect(filesOf(corpus)).toEqual(["small.md"]);
    expect(corpus.skipped).toEqual([{ file: "big.md", reason: expect.stringMatching(/^too large: 10\d\d\d bytes, more than maxFileBytes \(1000\)/) }]);
  });

  it("refuses to read a listed file that was swapped for a FIFO or a symlink before reading, without blocking", async () => {
    const dir = await corpusWith({ "fifo.md": doc("fifo"), "link.md": doc("link"), "secret.md": doc("secret") });
    const [fifo, link] = (await walkCorpus(dir)).files;
    await rm(join(dir, "fifo.md"));
    temp.fifo(join(dir, "fifo.md"));
    await rm(join(dir, "link.md"));
    await symlink("secret.md", join(dir, "link.md"));

    for (const [entry, reason] of [[fifo, "not a regular file (a FIFO)"], [link, /changed while the corpus was read/]] as const) {
      const error = await readCorpusFile(entry, 1_000_000).then(() => null, (caught: unknown) => caught);
      expect(error, entry.file).toBeInstanceOf(LookupKnowledgeError);
      expect((error as LookupKnowledgeError).code).toBe("CORPUS_FILE_INVALID");
      expect((error as LookupKnowledgeError).message).toMatch(reason);
    }
  });

  it("throws CORPUS_NOT_FOUND for a missing folder or a file given as the folder", async () => {
    const dir = await corpusWith({ "a.md": doc("a") });

    await expect(loadCorpus(join(dir, "missing"))).rejects.toMatchObject({ code: "CORPUS_NOT_FOUND" });
    await expect(loadCorpus(join(dir, "a.md"))).rejects.toMatchObject({ code: "CORPUS_NOT_FOUND" });
  });
});
