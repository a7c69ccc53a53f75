/**
 * Damaged index parts: every data file of a saved index flipped at seeded positions, truncated
 * and swapped for another index's. Each must give one clear `INDEX_CORRUPT`, when the index opens
 * or when the damaged part is first read (a chunk text, left on disk), and never an answer from
 * damaged bytes: every text read and every lookup either equals the undamaged index's or fails
 * with `INDEX_CORRUPT`. A load with `verify` refuses every one of them at once.
 */
import { copyFile, readdir, readFile, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRetrievalGraph, KnowledgeBase } from "../../src/index.js";
import { mulberry32 } from "../../src/seeded-random.js";
import { createTempDirs, KB_DIR } from "../integration/helpers/integration-fixtures.js";
import { recordFigures } from "./helpers/figures.js";

/** Flipped bytes per data file, at seeded positions over the whole file. */
const FLIPS_PER_FILE = 6;
const QUERIES = ["refund credit note", "rollback a release", "badge access", "invoice batch", "laptop encryption"];

type Damage = (path: string, other: string) => Promise<void>;

const isCorrupt = (error: unknown) => (error as { code?: unknown } | null)?.code === "INDEX_CORRUPT";

describe("damaged index parts", () => {
  const temp = createTempDirs("lookup-knowledge-damage-");
  let built: KnowledgeBase;
  let otherDir: string;
  let generationOf: (dir: string) => Promise<string>;
  let expected: Map<string, unknown>;

  beforeAll(async () => {
    built = await KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} });
    otherDir = await temp.make();
    await (await KnowledgeBase.build({ corpusDir: join(KB_DIR, "billing"), onWarning: () => {} })).save(otherDir);
    generationOf = async (dir) =>
      (JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as { generation: string }).generation;
    const graph = createRetrievalGraph({ knowledgeBase: built, tracePath: null });
    expected = new Map();
    for (const query of QUERIES) expected.set(query, (await graph.invoke({ query, limit: 10 })).result?.evidence);
  }, 120_000);
  afterAll(() => temp.cleanup());

  it("gives one INDEX_CORRUPT at open or at first read, never an answer from damaged bytes, and verify refuses each", async () => {
    const probe = await temp.make();
    await built.save(probe);
    const names = (await readdir(join(probe, await generationOf(probe)))).sort();
    const random = mulberry32(38);
    const cases: { name: string; label: string; damage: Damage }[] = [];
    for (const name of names) {
      for (let i = 0; i < FLIPS_PER_FILE; i++) {
        const where = random();
        cases.push({
          name,
          label: `one byte at ${(where * 100).toFixed(0)}%`,
          damage: async (path) => {
            const data = await readFile(path);
            data[Math.min(data.length - 1, Math.floor(where * data.length))] ^= 0x5a;
            await writeFile(path, data);
          },
        });
      }
      cases.push({
        name,
        label: "cut to half",
        damage: async (path) => truncate(path, Math.floor((await readFile(path)).length / 2)),
      });
      cases.push({ name, label: "emptied", damage: (path) => truncate(path, 0) });
      cases.push({ name, label: "another index's", damage: (path, other) => copyFile(other, path) });
    }

    let atOpen = 0;
    let atRead = 0;
    let wrongAnswers = 0;
    let crashes = 0;
    for (const { name, label, damage } of cases) {
      const dir = await temp.make();
      await built.save(dir);
      await damage(join(dir, await generationOf(dir), name), join(otherDir, await generationOf(otherDir), name));
      await expect(KnowledgeBase.load(dir, { verify: true }), `${name} ${label}, verify`).rejects.toMatchObject({
        code: "INDEX_CORRUPT",
      });
      let loaded: KnowledgeBase;
      try {
        loaded = await KnowledgeBase.load(dir, { texts: "disk" });
      } catch (error) {
        if (isCorrupt(error)) atOpen++;
        else crashes++;
        continue;
      }
      let failedReads = 0;
      loaded.chunks.forEach((chunk, i) => {
        try {
          if (chunk.content !== built.chunks[i].content) wrongAnswers++;
        } catch (error) {
          if (isCorrupt(error)) failedReads++;
          else crashes++;
        }
      });
      const graph = createRetrievalGraph({ knowledgeBase: loaded, tracePath: null });
      for (const query of QUERIES) {
        try {
          const evidence = (await graph.invoke({ query, limit: 10 })).result?.evidence;
          if (JSON.stringify(evidence) !== JSON.stringify(expected.get(query))) wrongAnswers++;
        } catch (error) {
          if (!isCorrupt(error)) crashes++;
        }
      }
      // A damage the open let through is one the reads caught.
      expect(failedReads, `${name} ${label}: opened, so a read must fail`).toBeGreaterThan(0);
      atRead++;
    }

    recordFigures({
      scenario: `damaged index parts (${names.length} files: ${FLIPS_PER_FILE} flipped bytes, cut, emptied, swapped)`,
      inputsTried: cases.length,
      faultsInjected: cases.length,
      crashes,
    });
    expect({ wrongAnswers, crashes, caught: atOpen + atRead }).toEqual({
      wrongAnswers: 0,
      crashes: 0,
      caught: cases.length,
    });
    // The texts are the part checked when read: some of their damage opens, and is caught then.
    expect(atRead).toBeGreaterThan(0);
    expect(atOpen).toBeGreaterThan(atRead);
  }, 600_000);
});
