import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KnowledgeBase } from "../../src/index.js";
import { createTempDirs, KB_DIR } from "../integration/helpers/integration-fixtures.js";
import { runCli } from "../helpers/run-cli.js";

const temp = createTempDirs("lookup-knowledge-verify-");
afterAll(() => temp.cleanup());

async function savedIndex(): Promise<string> {
  const dir = await temp.make();
  await (await KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} })).save(dir);
  return dir;
}

describe("lookup-knowledge verify", () => {
  it("prints one line and exits 0 for a whole index, naming what it checked", async () => {
    const dir = await savedIndex();
    const run = await runCli(["verify", "--index", dir]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^.* is whole: generation gen-[0-9a-f]{16}, 8 data files \([\d.]+ MiB\) match their SHA-256 and CRC-32; \d+ chunks \(\d+ characters of text\) decode; checked in [\d.]+ s\.\n$/,
    );
  });

  it("names the damaged file and exits 1 when a byte of a part changed, even behind a matching CRC-32", async () => {
    const dir = await savedIndex();
    const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as {
      generation: string;
      crc32: Record<string, string>;
    };
    const path = join(dir, manifest.generation, "bm25.bin");
    const data = await readFile(path);
    data[data.length - 2] ^= 0x01;
    await writeFile(path, data);
    const { crc32 } = await import("node:zlib");
    manifest.crc32["bm25.bin"] = crc32(data).toString(16).padStart(8, "0");
    await writeFile(join(dir, "manifest.json"), JSON.stringify(manifest));
    const run = await runCli(["verify", "--index", dir]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("file bm25.bin is corrupted (checksum mismatch)");
  });

  it("exits 1 with the load's error for a folder that holds no index", async () => {
    const run = await runCli(["verify", "--index", join(await temp.make(), "none")]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/missing manifest\.json/);
  });
});
