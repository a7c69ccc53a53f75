import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  compareCorpus,
  corpusDrift,
  describeDrift,
  hasDrift,
  hashCorpusFile,
  type HashCorpusFile,
  type IndexedCorpus,
} from "../../src/cli/stale-index.js";
import { loadCorpus } from "../../src/corpus/load-corpus.js";
import { walkCorpus, type CorpusFile } from "../../src/corpus/walk-corpus.js";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

/** What an index built from `dir` now would record, as the build records it. */
async function indexOf(dir: string): Promise<IndexedCorpus> {
  const corpus = await loadCorpus(dir);
  return { files: corpus.files, skipped: corpus.skipped, savedAtMs: Date.now() };
}

describe("compareCorpus", () => {
  let dir: string;
  const corpus = () => join(dir, "corpus");
  const doc = () => join(corpus(), "billing", "refunds.md");

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "lk-stale-"));
    await mkdir(join(corpus(), "billing"), { recursive: true });
    await writeFile(doc(), "# Refunds\n\nApproved by finance.\n");
    await writeFile(join(corpus(), "access.md"), "# Access\n\nKeys rotate monthly.\n");
    await writeFile(join(corpus(), "notes.txt"), "not markdown");
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("finds nothing for an unchanged corpus, without reading any file", async () => {
    const indexed = await indexOf(corpus());
    const hashed: string[] = [];
    const counting: HashCorpusFile = async (entry) => (hashed.push(entry.file), hashCorpusFile(entry));
    const drift = await compareCorpus(await walkCorpus(corpus()), indexed, counting);
    expect(drift).toEqual({ added: [], changed: [], removed: [] });
    expect(hasDrift(drift)).toBe(false);
    expect(hashed).toEqual([]);
  });

  it("hashes a touched file and finds it unchanged", async () => {
    const indexed = await indexOf(corpus());
    await utimes(doc(), new Date(), new Date(Date.now() + 60_000));
    const hashed: string[] = [];
    const counting: HashCorpusFile = async (entry) => (hashed.push(entry.file), hashCorpusFile(entry));
    expect(hasDrift(await compareCorpus(await walkCorpus(corpus()), indexed, counting))).toBe(false);
    expect(hashed).toEqual(["billing/refunds.md"]);
  });

  it("reports an edited file even when its size and modification time are kept", async () => {
    const indexed = await indexOf(corpus());
    const before = (await walkCorpus(corpus())).files.find((file) => file.file === "billing/refunds.md")!;
    await writeFile(doc(), "# Refunds\n\nApproved by support.\n".slice(0, before.size).padEnd(before.size, "\n"));
    await utimes(doc(), new Date(before.mtimeMs), new Date(before.mtimeMs));
    expect(await compareCorpus(await walkCorpus(corpus()), indexed)).toEqual({
      added: [],
      changed: ["billing/refunds.md"],
      removed: [],
    });
  });

  it("reports added and removed Markdown files, ignoring other files", async () => {
    const indexed = await indexOf(corpus());
    await rm(join(corpus(), "access.md"));
    await writeFile(join(corpus(), "new.md"), "# New\n\nText.\n");
    await writeFile(join(corpus(), "more.txt"), "not markdown");
    expect(await compareCorpus(await walkCorpus(corpus()), indexed)).toEqual({
      added: ["new.md"],
      changed: [],
      removed: ["access.md"],
    });
  });

  it("counts a file the build skipped as changed only when it was written after the index was saved", async () => {
    const entry = {
      file: "broken.md",
      path: "",
      dev: 1,
      ino: 2,
      size: 3,
      mtimeMs: 1_000,
      ctimeMs: 1_000,
    } satisfies CorpusFile;
    const listing = { files: [entry], skipped: [], markdownCount: 1 };
    const indexed = { files: [], skipped: [{ file: "broken.md", reason: "no text" }], savedAtMs: 2_000 };
    expect(hasDrift(await compareCorpus(listing, indexed))).toBe(false);
    expect(await compareCorpus({ ...listing, files: [{ ...entry, ctimeMs: 3_000 }] }, indexed)).toEqual({
      added: [],
      changed: ["broken.md"],
      removed: [],
    });
  });

  it("compares by the bytes' SHA-256, as the index records them", async () => {
    const entry = { file: "a.md", path: "", dev: 1, ino: 2, size: 3, mtimeMs: 1, ctimeMs: 1 } satisfies CorpusFile;
    const listing = { files: [entry], skipped: [], markdownCount: 1 };
    const indexed = {
      files: [{ file: "a.md", sha256: sha("old"), chunkCount: 1, stamp: "other" }],
      skipped: [],
      savedAtMs: 0,
    };
    expect(hasDrift(await compareCorpus(listing, indexed, async () => sha("old")))).toBe(false);
    expect(hasDrift(await compareCorpus(listing, indexed, async () => sha("new")))).toBe(true);
    expect(hasDrift(await compareCorpus(listing, indexed, async () => null))).toBe(true);
  });

  it("lists the corpus as the build does: hidden folders, node_modules, symlinks leaving it and FIFOs are not added files", async () => {
    const indexed = await indexOf(corpus());
    for (const path of [".git/HEAD.md", ".hidden/new.md", "node_modules/pkg/README.md"]) {
      await mkdir(join(corpus(), path, ".."), { recursive: true });
      await writeFile(join(corpus(), path), "# New\n");
    }
    await writeFile(join(corpus(), ".dotfile.md"), "# New\n");
    await writeFile(join(dir, "outside.md"), "# New\n");
    await symlink(join(dir, "outside.md"), join(corpus(), "escape.md"));
    execFileSync("mkfifo", [join(corpus(), "pipe.md")]);
    expect(hasDrift(await corpusDrift(corpus(), indexed))).toBe(false);
  });

  it("is null for a folder that cannot be listed", async () => {
    expect(await corpusDrift(join(dir, "missing"), await indexOf(corpus()))).toBeNull();
  });
});

describe("describeDrift", () => {
  it("counts each kind and names at most three files of each", () => {
    expect(describeDrift({ added: ["n.md"], changed: ["a.md", "b.md", "c.md", "d.md", "e.md"], removed: [] })).toBe(
      '5 changed ("a.md", "b.md", "c.md", and 2 more), 1 added ("n.md")',
    );
  });
});
