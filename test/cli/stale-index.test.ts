import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
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

  it("is false when the corpus folder or the manifest does not exist", async () => {
    expect(await corpusChangedSince(join(dir, "missing"), manifest())).toBe(false);
    expect(await corpusChangedSince(join(dir, "corpus"), join(dir, "none.json"))).toBe(false);
  });
});
