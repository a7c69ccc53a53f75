import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { corpusChangedSince } from "../../src/cli/stale-index.js";

describe("corpusChangedSince", () => {
  let dir: string;
  const manifest = () => join(dir, "index", "manifest.json");
  const doc = () => join(dir, "corpus", "billing", "refunds.md");
  const at = (seconds: number) => new Date(seconds * 1000);

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "lk-stale-"));
    await mkdir(join(dir, "index"), { recursive: true });
    await mkdir(join(dir, "corpus", "billing"), { recursive: true });
    await writeFile(doc(), "# Refunds\n");
    await writeFile(join(dir, "corpus", "notes.txt"), "not markdown");
    await writeFile(manifest(), "{}");
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reports a Markdown file changed after the manifest was written", async () => {
    await utimes(manifest(), at(1_000), at(1_000));
    await utimes(doc(), at(2_000), at(2_000));
    expect(await corpusChangedSince(join(dir, "corpus"), manifest())).toBe(true);
  });

  it("ignores files older than the manifest and files that are not Markdown", async () => {
    await utimes(doc(), at(1_000), at(1_000));
    await utimes(join(dir, "corpus", "notes.txt"), at(3_000), at(3_000));
    await utimes(manifest(), at(2_000), at(2_000));
    expect(await corpusChangedSince(join(dir, "corpus"), manifest())).toBe(false);
  });

  it("ignores files the index leaves out: hidden folders, dot-files, node_modules and symlinks leaving the corpus", async () => {
    await utimes(doc(), at(1_000), at(1_000));
    await utimes(manifest(), at(2_000), at(2_000));
    const corpus = join(dir, "corpus");
    for (const path of [".git/HEAD.md", ".hidden/new.md", "node_modules/pkg/README.md"]) {
      await mkdir(join(corpus, path, ".."), { recursive: true });
      await writeFile(join(corpus, path), "# New\n");
    }
    await writeFile(join(corpus, ".dotfile.md"), "# New\n");
    await writeFile(join(dir, "outside.md"), "# New\n");
    await symlink(join(dir, "outside.md"), join(corpus, "escape.md"));

    expect(await corpusChangedSince(corpus, manifest())).toBe(false);
  });

  it("follows a symlink to a file inside the corpus, even one whose own folder is hidden", async () => {
    await utimes(doc(), at(1_000), at(1_000));
    await utimes(manifest(), at(2_000), at(2_000));
    const target = join(dir, "corpus", ".shared", "target.md");
    await mkdir(join(dir, "corpus", ".shared"));
    await writeFile(target, "# Target\n");
    await utimes(target, at(1_000), at(1_000));
    await symlink("../.shared/target.md", join(dir, "corpus", "billing", "link.md"));
    expect(await corpusChangedSince(join(dir, "corpus"), manifest())).toBe(false);

    await utimes(target, at(3_000), at(3_000));
    expect(await corpusChangedSince(join(dir, "corpus"), manifest())).toBe(true);
  });

  it("does not block on a FIFO named like a Markdown file", async () => {
    await utimes(doc(), at(1_000), at(1_000));
    await utimes(manifest(), at(2_000), at(2_000));
    execFileSync("mkfifo", [join(dir, "corpus", "pipe.md")]);

    expect(await corpusChangedSince(join(dir, "corpus"), manifest())).toBe(false);
  });

  it("is false when the corpus folder or the manifest does not exist", async () => {
    expect(await corpusChangedSince(join(dir, "missing"), manifest())).toBe(false);
    expect(await corpusChangedSince(join(dir, "corpus"), join(dir, "none.json"))).toBe(false);
  });
});
