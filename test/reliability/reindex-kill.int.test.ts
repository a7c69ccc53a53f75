/**
 * `kill -9` during a re-index over a good index: at every step the save reports, and of the real
 * CLI at spread-out moments. After each kill the folder must load as the old index or the new
 * one, never neither; the next successful save must leave no leftovers of the killed runs.
 */
import { cp, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnowledgeBase } from "../../src/knowledge-base/knowledge-base.js";
import { createTempDirs, KB_DIR } from "../integration/helpers/integration-fixtures.js";
import { recordFigures } from "./helpers/figures.js";
import { writeCorpus } from "./helpers/index-corpus.js";
import {
  exited,
  indexLeftovers,
  loadedFingerprint,
  newEntryIn,
  runSaveChild,
  spawnIndexCli,
} from "./helpers/index-processes.js";

/** Real kills of the CLI to inject; a run that finishes before its kill does not count. */
const CLI_KILLS = 12;

describe("kill -9 during a re-index", () => {
  const temp = createTempDirs("lookup-knowledge-kill-");
  afterAll(() => temp.cleanup());

  describe("at every save step", () => {
    let changedCorpus: string;
    let pristine: string;
    let oldFingerprint: string;
    let newKb: KnowledgeBase;

    beforeAll(async () => {
      changedCorpus = await temp.make();
      await cp(KB_DIR, changedCorpus, { recursive: true });
      await writeFile(
        join(changedCorpus, "access", "new-runbook.md"),
        "---\ntitle: New Runbook\ndomain: access\n---\nRevoke a badge at the front desk.\n",
      );
      const refunds = join(changedCorpus, "billing", "refunds.md");
      await writeFile(
        refunds,
        `${await readFile(refunds, "utf8")}\n## Refunds in Kind\n\nStore credit instead of money.\n`,
      );
      newKb = await KnowledgeBase.build({ corpusDir: changedCorpus, onWarning: () => {} });

      pristine = await temp.make();
      const oldKb = await KnowledgeBase.build({ corpusDir: KB_DIR, onWarning: () => {} });
      await oldKb.save(pristine);
      oldFingerprint = oldKb.fingerprint;
      // Leftovers of an earlier killed re-index, so that the cleanup at the start of a save has work to do.
      expect((await runSaveChild(changedCorpus, pristine, 2)).signal).toBe("SIGKILL");
      await writeFile(join(pristine, "chunks.json.4242.tmp"), "partial");
    });

    it(
      "loads the old index before the commit and the new one from it, and the next save removes every leftover",
      { timeout: 600_000 },
      async () => {
        expect(newKb.fingerprint).not.toBe(oldFingerprint);
        const reference = await temp.make();
        await cp(pristine, reference, { recursive: true });
        const { steps, code } = await runSaveChild(changedCorpus, reference, -1);
        expect(code).toBe(0);
        expect(await loadedFingerprint(reference)).toEqual({ fingerprint: newKb.fingerprint });
        expect(await indexLeftovers(reference)).toEqual([]);
        const commit = steps.findIndex(({ step }) => step === "commit");
        expect(commit).toBeGreaterThan(0);
        expect(steps.length).toBeGreaterThan(commit + 1);

        let faultsInjected = 0;
        let indexesLost = 0;
        let crashes = 0;
        const problems: string[] = [];
        for (let killAt = 0; killAt < steps.length; killAt += 1) {
          const dir = await temp.make();
          await cp(pristine, dir, { recursive: true });
          const run = await runSaveChild(changedCorpus, dir, killAt);
          const where = `killed after step ${killAt} ${JSON.stringify(run.steps.at(-1))}`;
          if (run.signal === "SIGKILL" && run.steps.length === killAt + 1) {
            faultsInjected += 1;
          } else {
            crashes += 1;
            problems.push(
              `step ${killAt}: the child ended with ${run.signal ?? run.code} after ${run.steps.length} steps: ${run.stderr}`,
            );
          }
          const loaded = await loadedFingerprint(dir);
          const expected = killAt >= commit ? newKb.fingerprint : oldFingerprint;
          if (!("fingerprint" in loaded)) {
            indexesLost += 1;
            problems.push(`${where}: ${loaded.error}`);
          } else if (loaded.fingerprint !== expected) {
            problems.push(`${where}: loads ${loaded.fingerprint}, expected ${expected}`);
          }

          await newKb.save(dir);
          const leftovers = await indexLeftovers(dir);
          if (leftovers.length > 0) problems.push(`${where}: the next save left ${leftovers.join(", ")}`);
        }
        recordFigures({ scenario: "kill -9 at every save step of a re-index", faultsInjected, indexesLost, crashes });
        expect(indexesLost).toBe(0);
        expect(crashes).toBe(0);
        expect(problems).toEqual([]);
        expect(faultsInjected).toBe(steps.length);
      },
    );
  });

  describe("of the CLI at spread-out moments", () => {
    let corpora: string[];
    let dir: string;
    const fingerprintOf = new Map<string, string>();

    beforeAll(async () => {
      const shape = { files: 600, sections: 4, words: 60 };
      corpora = [
        await writeCorpus(await temp.make(), { ...shape, variant: 1 }),
        await writeCorpus(await temp.make(), { ...shape, variant: 2 }),
      ];
      dir = join(await temp.make(), "index");
    });

    /** Indexes `corpus` into `dir` to the end; returns how long the save ran, seen from the folder. */
    async function indexFully(corpus: string): Promise<number> {
      const before = await readdir(dir).catch(() => []);
      const child = spawnIndexCli(corpus, dir);
      const done = exited(child);
      await newEntryIn(dir, before, done);
      const started = performance.now();
      const exit = await done;
      expect(exit.code, exit.stderr).toBe(0);
      const loaded = await loadedFingerprint(dir);
      if (!("fingerprint" in loaded)) throw new Error(loaded.error);
      fingerprintOf.set(corpus, loaded.fingerprint);
      return performance.now() - started;
    }

    it(
      "never leaves neither the old nor the new index, and the next save removes every leftover",
      { timeout: 900_000 },
      async () => {
        await indexFully(corpora[0]);
        // How long a save runs, from its first new entry in the folder to the exit; kills are spread over it.
        let window = await indexFully(corpora[1]);
        expect(fingerprintOf.get(corpora[0])).not.toBe(fingerprintOf.get(corpora[1]));

        let faultsInjected = 0;
        let indexesLost = 0;
        let crashes = 0;
        let current = corpora[1];
        const problems: string[] = [];
        for (let attempt = 0; attempt < CLI_KILLS * 3 && faultsInjected < CLI_KILLS; attempt += 1) {
          const target = current === corpora[0] ? corpora[1] : corpora[0];
          const oldFingerprint = fingerprintOf.get(current);
          const before = await readdir(dir);
          const child = spawnIndexCli(target, dir);
          const done = exited(child);
          const exitedAt = done.then(() => performance.now());
          const saving = await newEntryIn(dir, before, done);
          const started = performance.now();
          if (saving) {
            await sleep((window * (faultsInjected + 0.5)) / CLI_KILLS);
            child.kill("SIGKILL");
          }
          const exit = await done;
          if (exit.signal === "SIGKILL") {
            faultsInjected += 1;
          } else if (exit.code === 0) {
            // The save finished before its kill: aim the next kills within the time a save really takes.
            window = Math.min(window, (await exitedAt) - started);
          } else {
            crashes += 1;
            problems.push(`attempt ${attempt}: the CLI failed: ${exit.stderr}`);
          }
          const loaded = await loadedFingerprint(dir);
          if (!("fingerprint" in loaded)) {
            indexesLost += 1;
            problems.push(`attempt ${attempt}: ${loaded.error}`);
            continue;
          }
          if (loaded.fingerprint !== oldFingerprint && loaded.fingerprint !== fingerprintOf.get(target))
            problems.push(`attempt ${attempt}: loads ${loaded.fingerprint}, neither old nor new`);
          current = loaded.fingerprint === fingerprintOf.get(target) ? target : current;
        }
        recordFigures({
          scenario: "kill -9 of `lookup-knowledge index` during a re-index",
          faultsInjected,
          indexesLost,
          crashes,
        });
        expect(indexesLost).toBe(0);
        expect(crashes).toBe(0);
        expect(problems).toEqual([]);
        expect(faultsInjected).toBeGreaterThanOrEqual(10);

        await indexFully(current === corpora[0] ? corpora[1] : corpora[0]);
        expect(await indexLeftovers(dir)).toEqual([]);
      },
    );
  });
});
