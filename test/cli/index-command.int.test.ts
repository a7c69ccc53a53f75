import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { updateAndSave } from "../../src/cli/index-build.js";
import { KnowledgeBase } from "../../src/index.js";
import { createTempDirs, REPO_ROOT } from "../integration/helpers/integration-fixtures.js";
import { craftBm25 } from "../l0/bm25-craft.js";

describe("lookup-knowledge index on an existing index", () => {
  const temp = createTempDirs();
  afterAll(() => temp.cleanup());

  it("rebuilds, saying why, when the update finds the saved keyword index damaged", async () => {
    const base = await temp.make();
    const corpus = join(base, "corpus");
    const out = join(base, "index");
    await cp(join(REPO_ROOT, "test/fixtures/kb"), corpus, { recursive: true });
    const built = await KnowledgeBase.build({ corpusDir: corpus });
    await built.save(out);
    // A bm25.bin that loads (its table adds up) but whose one posting block names a document past the last.
    const manifest = JSON.parse(await readFile(join(out, "manifest.json"), "utf8")) as {
      generation: string;
      checksums: Record<string, string>;
      crc32: Record<string, string>;
    };
    const count = built.chunks.length;
    const bad = craftBm25({
      terms: ["zzz"],
      docLengths: Array.from({ length: count }, () => 1),
      blocks: [[count + 5, 1]],
    });
    await writeFile(join(out, manifest.generation, "bm25.bin"), bad);
    manifest.checksums["bm25.bin"] = createHash("sha256").update(bad).digest("hex");
    manifest.crc32["bm25.bin"] = crc32(bad).toString(16).padStart(8, "0");
    await writeFile(join(out, "manifest.json"), JSON.stringify(manifest));
    await KnowledgeBase.load(out);
    await writeFile(
      join(corpus, "glossary.md"),
      `${await readFile(join(corpus, "glossary.md"), "utf8")}\n\nAn added sentence about quokkas.\n`,
    );

    const lines: string[] = [];
    expect(await updateAndSave(corpus, out, (line) => lines.push(line))).toBeNull();
    expect(lines.join("\n")).toMatch(/rebuilding the index in .*keyword index is damaged/);
    expect(lines.join("\n")).not.toMatch(/lookup-knowledge: .*lookup-knowledge: /);
  });
});
