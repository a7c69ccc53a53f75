/**
 * `kill -9` during the save of a document sync (`syncDocuments`) over a good index built from
 * documents: at every step the save reports, the folder must load as the old index or the new one,
 * and the next sync from it must be correct (the counts of a sync from whichever it loads) and
 * leave no leftovers.
 */
import { cp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { DocumentInterface } from "@langchain/core/documents";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnowledgeBase } from "../../src/knowledge-base/knowledge-base.js";
import { createTempDirs } from "../integration/helpers/integration-fixtures.js";
import { recordFigures } from "./helpers/figures.js";
import { indexLeftovers, loadedFingerprint, runSyncChild } from "./helpers/index-processes.js";

/** Forty sources of two pages each: v2 edits one page, drops one source and adds another. */
function documents(version: 1 | 2): DocumentInterface[] {
  const docs: DocumentInterface[] = [];
  for (let i = 0; i < 40; i++) {
    if (version === 2 && i === 7) continue;
    for (const page of [1, 2]) {
      const edited = version === 2 && i === 3 && page === 2;
      docs.push({
        pageContent: `Manual ${i} page ${page}: the ${edited ? "revised" : "original"} procedure for machine ${i} step ${page}.`,
        metadata: { source: `manual-${i}.pdf`, loc: { pageNumber: page }, domain: i % 2 === 0 ? "ops" : "it" },
      });
    }
  }
  if (version === 2) docs.push({ pageContent: "A new manual for the press.", metadata: { source: "press.pdf" } });
  return docs;
}

describe("kill -9 during the save of a document sync", () => {
  const temp = createTempDirs("lookup-knowledge-sync-kill-");
  afterAll(() => temp.cleanup());
  let pristine: string;
  let documentsFile: string;
  let oldFingerprint: string;
  let newFingerprint: string;

  beforeAll(async () => {
    pristine = await temp.make();
    await (await KnowledgeBase.fromDocuments(documents(1))).save(pristine);
    oldFingerprint = (await KnowledgeBase.load(pristine)).fingerprint;
    documentsFile = join(await temp.make(), "documents.json");
    await writeFile(documentsFile, JSON.stringify(documents(2)));
  });

  it(
    "loads the old index before the commit and the new one from it, and the next sync is correct",
    { timeout: 600_000 },
    async () => {
      const reference = await temp.make();
      await cp(pristine, reference, { recursive: true });
      const { steps, code, stderr } = await runSyncChild(documentsFile, reference, -1);
      expect(code, stderr).toBe(0);
      const loaded = await loadedFingerprint(reference);
      expect(loaded).toHaveProperty("fingerprint");
      newFingerprint = (loaded as { fingerprint: string }).fingerprint;
      expect(newFingerprint).not.toBe(oldFingerprint);
      const commit = steps.findIndex(({ step }) => step === "commit");
      expect(commit).toBeGreaterThan(0);

      let faultsInjected = 0;
      let indexesLost = 0;
      const problems: string[] = [];
      for (let killAt = 0; killAt < steps.length; killAt += 1) {
        const dir = await temp.make();
        await cp(pristine, dir, { recursive: true });
        const run = await runSyncChild(documentsFile, dir, killAt);
        const where = `killed after step ${killAt} ${JSON.stringify(run.steps.at(-1))}`;
        if (run.signal === "SIGKILL" && run.steps.length === killAt + 1) faultsInjected += 1;
        else problems.push(`step ${killAt}: the child ended with ${run.signal ?? run.code}: ${run.stderr}`);
        const found = await loadedFingerprint(dir);
        const committed = killAt >= commit;
        if (!("fingerprint" in found)) {
          indexesLost += 1;
          problems.push(`${where}: ${found.error}`);
          continue;
        }
        if (found.fingerprint !== (committed ? newFingerprint : oldFingerprint))
          problems.push(`${where}: loads ${found.fingerprint}`);

        // The next sync, from whichever generation serves: the counts of that generation, the new index, no leftovers.
        const next = await (await KnowledgeBase.load(dir)).syncDocuments(documents(2), { cleanup: "full" });
        const expected = committed
          ? { numAdded: 0, numUpdated: 0, numSkipped: 79, numDeleted: 0 }
          : { numAdded: 1, numUpdated: 1, numSkipped: 77, numDeleted: 2 };
        if (JSON.stringify(next.result) !== JSON.stringify(expected))
          problems.push(`${where}: the next sync counted ${JSON.stringify(next.result)}`);
        await next.knowledgeBase.save(dir);
        const after = await loadedFingerprint(dir);
        if (!("fingerprint" in after) || after.fingerprint !== newFingerprint)
          problems.push(`${where}: the next sync saved ${JSON.stringify(after)}`);
        const leftovers = await indexLeftovers(dir);
        if (leftovers.length > 0) problems.push(`${where}: the next save left ${leftovers.join(", ")}`);
      }
      recordFigures({
        scenario: "kill -9 at every save step of a document sync",
        faultsInjected,
        indexesLost,
        crashes: problems.length - indexesLost,
      });
      expect(problems).toEqual([]);
      expect(indexesLost).toBe(0);
      expect(faultsInjected).toBe(steps.length);
    },
  );
});
