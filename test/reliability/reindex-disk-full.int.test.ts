/**
 * A re-index onto a full disk or a read-only one: an index folder on a 512 KiB tmpfs holding a
 * good index. Every failed write must be one INDEX_WRITE_FAILED naming the folder and the cause;
 * the old index must still load with its old fingerprint and no partial generation may remain.
 */
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LookupKnowledgeError } from "../../src/errors.js";
import { KnowledgeBase } from "../../src/knowledge-base/knowledge-base.js";
import type { SaveProgress } from "../../src/knowledge-base/save-options.js";
import { createTempDirs, KB_DIR } from "../integration/helpers/integration-fixtures.js";
import { recordFigures } from "./helpers/figures.js";
import { writeCorpus } from "./helpers/index-corpus.js";
import { loadedFingerprint } from "./helpers/index-processes.js";
import { fillDisk, mountTmpfs, remountReadOnly, unmountTmpfs, type TmpfsMount } from "./helpers/index-tmpfs.js";

const SCENARIO = "re-index onto a full or read-only disk";
const PAGE = 4096;

describe("a re-index onto a full disk", () => {
  const temp = createTempDirs("lookup-knowledge-disk-");
  let mount: TmpfsMount = { mounted: false, reason: "not mounted yet" };
  let dir: string;
  let filler: string;
  let old: KnowledgeBase;

  beforeAll(async () => {
    const disk = join(await temp.make(), "disk");
    await mkdir(disk);
    mount = mountTmpfs(disk, "512k");
    if (!mount.mounted) return;
    dir = join(disk, "index");
    filler = join(disk, "filler");
    old = await KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} });
    await old.save(dir);
  });
  afterAll(async () => {
    unmountTmpfs(mount);
    await temp.cleanup();
  });

  /** What one scenario measured. */
  interface Tally {
    faultsInjected: number;
    indexesLost: number;
    crashes: number;
  }

  /**
   * Saves `kb` where it cannot succeed; checks the error, the old index and the folder, and that
   * the last step the save reported was `lastStep` (so the fault hit where it was meant to; a
   * pattern when only "before the commit" is meant: the data files are compressed, so where a
   * too-big index runs out of space depends on how well they compress).
   */
  async function failedSave(
    tally: Tally,
    kb: KnowledgeBase,
    cause: RegExp,
    where: string,
    lastStep: string | RegExp | undefined,
  ): Promise<void> {
    const before = (await readdir(dir)).sort();
    const steps: string[] = [];
    const error = await kb
      .save(dir, { onProgress: ({ step, file }) => steps.push(file === undefined ? step : `${step}:${file}`) })
      .then(
        () => null,
        (reason: unknown) => reason,
      );
    tally.faultsInjected += 1;
    if (!(error instanceof LookupKnowledgeError)) tally.crashes += 1;
    const loaded = await loadedFingerprint(dir);
    if (!("fingerprint" in loaded)) tally.indexesLost += 1;
    expect(error, where).toBeInstanceOf(LookupKnowledgeError);
    expect((error as LookupKnowledgeError).code, where).toBe("INDEX_WRITE_FAILED");
    expect((error as Error).message, where).toContain(dir);
    expect((error as Error).message, where).toMatch(cause);
    expect(loaded, where).toEqual({ fingerprint: old.fingerprint });
    expect((await readdir(dir)).sort(), `${where}: no partial generation is left`).toEqual(before);
    if (typeof lastStep === "string" || lastStep === undefined)
      expect(steps.at(-1), `${where}: the last step reached`).toBe(lastStep);
    else expect(steps.at(-1), `${where}: the last step reached`).toMatch(lastStep);
  }

  /** Runs `inject` and records what it measured, also when one of its checks fails. */
  async function scenario(name: string, inject: (tally: Tally) => Promise<void>): Promise<Tally> {
    const tally: Tally = { faultsInjected: 0, indexesLost: 0, crashes: 0 };
    try {
      await inject(tally);
    } finally {
      recordFigures({ scenario: `${SCENARIO}: ${name}`, ...tally });
    }
    expect(tally.indexesLost).toBe(0);
    expect(tally.crashes).toBe(0);
    return tally;
  }

  it("fails with INDEX_WRITE_FAILED for a corpus too big for the disk, and the old index still loads", async (ctx) => {
    if (!mount.mounted) {
      recordFigures({ scenario: `${SCENARIO}: too big`, skippedBecause: mount.reason });
      ctx.skip();
      return;
    }
    const corpus = await writeCorpus(await temp.make(), { files: 160, sections: 4, words: 80, variant: 3 });
    const big = await KnowledgeBase.build({ corpusDir: corpus, onWarning: () => {} });
    await scenario("too big", (tally) =>
      failedSave(tally, big, /no space left on device|ENOSPC/i, "too big", /^(collect|write:.+)$/),
    );
  });

  it("fails cleanly when the disk fills up inside each file of the new index, at the staged manifest, or is read-only", async (ctx) => {
    if (!mount.mounted) {
      recordFigures({ scenario: `${SCENARIO}: every file`, skippedBecause: mount.reason });
      ctx.skip();
      return;
    }
    // Small enough that the new index fits beside the old one, so that every point can be reached.
    const corpus = await writeCorpus(await temp.make(), { files: 30, sections: 4, words: 80, variant: 4 });
    const medium = await KnowledgeBase.build({ corpusDir: corpus, onWarning: () => {} });
    const sizing = await temp.make();
    const written: string[] = [];
    await medium.save(sizing, {
      onProgress: ({ step, file }: SaveProgress) => step === "write" && file !== undefined && written.push(file),
    });
    const generation = (await readdir(sizing)).find((name) => name.startsWith("gen-")) ?? "";
    const sizes = await Promise.all(written.map(async (name) => (await stat(join(sizing, generation, name))).size));
    const pages = sizes.map((size) => Math.ceil(size / PAGE) * PAGE);
    const full = /no space left on device|ENOSPC/i;
    // The save's writer lock (a small file) takes one page before any data file.
    const LOCK_PAGE = PAGE;

    const tally = await scenario("every file", async (tally) => {
      for (const [k, name] of written.entries()) {
        const before = pages.slice(0, k).reduce((sum, size) => sum + size, 0);
        await fillDisk(dir, filler, LOCK_PAGE + before + Math.floor(pages[k] / PAGE / 2) * PAGE);
        await failedSave(
          tally,
          medium,
          full,
          `disk full inside ${name} (${sizes[k]} bytes)`,
          k === 0 ? "collect" : `write:${written[k - 1]}`,
        );
        await rm(filler);
      }
      await fillDisk(dir, filler, LOCK_PAGE + pages.reduce((sum, size) => sum + size, 0));
      await failedSave(tally, medium, full, "disk full at the staged manifest", `write:${written.at(-1)}`);
      await rm(filler);

      remountReadOnly(mount, true);
      try {
        // The writer lock cannot be made: the save fails before its first step.
        await failedSave(tally, medium, /read-only file system|EROFS/i, "read-only disk", undefined);
      } finally {
        remountReadOnly(mount, false);
      }
    });
    expect(tally.faultsInjected).toBe(written.length + 2);
  });
});
