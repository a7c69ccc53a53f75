import { cp, mkdtemp, readFile, rename, rm, stat, unlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnowledgeBase, LookupKnowledgeError } from "../../src/index.js";
import type { Candidate } from "../../src/types.js";
import { plain } from "../helpers/plain.js";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const EDITED = "billing/account-freeze-for-non-payment.md";
const REMOVED = "deployment/canary-releases.md";
const ADDED = "billing/late-fees.md";
/** Words only the edited section held before the edit. */
const OLD_TEXT = "checks accounts every day at 06:00";
const NEW_TEXT = "The billing scheduler checks accounts every night at 02:30 UTC with the quokkaprobe job.";
const ADDED_FILE = `---\ntitle: Late Fees\ndomain: billing\nkeywords: [late fee, overdue interest]\n---\nA late fee of 1.5% per month applies to invoices 45 days past due, assessed by the zebrafinch process.\n\n## Waiving a Late Fee\n\nBilling Operations may waive one late fee per customer per year.\n`;

/**
 * The mean share of the top 10 that two L1 result lists have in common: how close an updated
 * graph (embedder kept, new chunks folded in) answers to a full rebuild (embedder refitted).
 */
function overlapAt10(a: Candidate[], b: Candidate[]): number {
  const top = new Set(b.slice(0, 10).map((hit) => hit.chunk.source));
  const shared = a.slice(0, 10).filter((hit) => top.has(hit.chunk.source)).length;
  return shared / Math.max(1, Math.min(10, a.length, b.length));
}

/**
 * L1 tolerance of an incremental update against a full rebuild: the update keeps the embedder
 * and folds new chunks in, the rebuild refits it, and refitting alone moves neighbours (two
 * rebuilds whose embedders differ only in their SVD seed share about as much of their top 10).
 * The update must stay as close to the rebuild as such a second rebuild, within this margin.
 */
const L1_OVERLAP_MARGIN = 0.05;

describe("KnowledgeBase.update: an incremental re-index", () => {
  let corpus: string;
  let indexDir: string;
  let updated: KnowledgeBase;
  let rebuilt: KnowledgeBase;
  let changes: Awaited<ReturnType<KnowledgeBase["update"]>>["changes"];
  let queries: string[];

  beforeAll(async () => {
    corpus = await mkdtemp(join(tmpdir(), "lk-update-"));
    indexDir = await mkdtemp(join(tmpdir(), "lk-update-index-"));
    await cp(join(REPO, "corpus"), corpus, { recursive: true });
    const original = await KnowledgeBase.build({ corpusDir: corpus });
    await original.save(indexDir);
    queries = original.chunks
      .filter((_, i) => i % 3 === 0)
      .map((chunk) => `${chunk.breadcrumb.join(" ")} ${chunk.content.split(/\s+/).slice(0, 8).join(" ")}`);
    queries.push(
      "when does the billing scheduler check accounts",
      "quokkaprobe",
      "zebrafinch late fee",
      "how do canary releases work",
    );

    const edited = (await readFile(join(corpus, EDITED), "utf8")).replace(
      /The billing scheduler checks accounts every day at 06:00 UTC\./,
      NEW_TEXT,
    );
    expect(edited).toContain("quokkaprobe");
    await writeFile(join(corpus, EDITED), edited);
    await unlink(join(corpus, REMOVED));
    await writeFile(join(corpus, ADDED), ADDED_FILE);

    const loaded = await KnowledgeBase.load(indexDir);
    ({ knowledgeBase: updated, changes } = await loaded.update({ corpusDir: corpus }));
    rebuilt = await KnowledgeBase.build({ corpusDir: corpus });
  }, 120_000);

  afterAll(async () => {
    await rm(corpus, { recursive: true, force: true });
    await rm(indexDir, { recursive: true, force: true });
  });

  it("re-reads only the changed files and re-embeds only the changed chunks", () => {
    expect(changes.addedFiles).toEqual([ADDED]);
    expect(changes.changedFiles).toEqual([EDITED]);
    expect(changes.removedFiles).toEqual([REMOVED]);
    expect(changes.unchangedFiles).toBe(
      rebuilt.chunks.length > 0 ? new Set(rebuilt.chunks.map((c) => c.file)).size - 2 : 0,
    );
    // One edited section and the two sections of the new file; every other chunk kept its postings and vector.
    expect(changes.chunksAdded).toBe(3);
    expect(changes.chunksKept).toBe(updated.chunks.length - 3);
    expect(changes.lsa).toBe("kept");
    expect(changes.vectors).toBe("updated");
  });

  it("holds the same chunks, in the same order, with the same fingerprint as a full rebuild", () => {
    expect(plain(updated.chunks)).toEqual(plain(rebuilt.chunks));
    expect(updated.fingerprint).toBe(rebuilt.fingerprint);
    expect(updated.domains).toEqual(rebuilt.domains);
  });

  it("answers L0 exactly as a full rebuild: candidates, scores, hit reasons and hints", () => {
    for (const query of queries) {
      for (const domain of [null, "billing"]) {
        expect(plain(updated.l0.search(query, { domain, limit: 20 })), `${query} (${String(domain)})`).toEqual(
          plain(rebuilt.l0.search(query, { domain, limit: 20 })),
        );
      }
    }
  });

  it("keeps L1 as close to a full rebuild as a rebuild with another embedder seed is", async () => {
    const reseeded = await KnowledgeBase.build({ corpusDir: corpus, lsa: { seed: 7 } });
    let update = 0;
    let reseed = 0;
    const options = { domain: null, k: 10, minScore: 0 };
    for (const query of queries) {
      const reference = await rebuilt.l1!.search(query, options);
      update += overlapAt10(await updated.l1!.search(query, options), reference);
      reseed += overlapAt10(await reseeded.l1!.search(query, options), reference);
    }
    expect(update / queries.length).toBeGreaterThanOrEqual(reseed / queries.length - L1_OVERLAP_MARGIN);
  });

  it("never returns a deleted file or a changed file's old chunk from either layer, and finds the new text", async () => {
    const everything = updated.chunks.length + 10;
    for (const query of ["how do canary releases work", `scheduler ${OLD_TEXT}`]) {
      const l0 = updated.l0.search(query, { domain: null, limit: everything }).candidates;
      const l1 = await updated.l1!.search(query, { domain: null, k: everything, minScore: -1 });
      for (const hit of [...l0, ...l1]) {
        expect(hit.chunk.file).not.toBe(REMOVED);
        expect(hit.chunk.content).not.toContain(OLD_TEXT);
      }
      expect(l1.length).toBe(updated.chunks.length);
    }
    expect(updated.l0.search("quokkaprobe", { domain: null, limit: 5 }).candidates[0]?.chunk.file).toBe(EDITED);
    expect(updated.l0.search("zebrafinch", { domain: null, limit: 5 }).candidates[0]?.chunk.file).toBe(ADDED);
    const l1 = await updated.l1!.search("zebrafinch late fee assessed", { domain: "billing", k: 3, minScore: 0 });
    expect(l1.map((hit) => hit.chunk.file)).toContain(ADDED);
  });

  it("links the unchanged embedder projection from the index it was loaded from instead of writing it again, and writes it when that file is gone or was written to since", async () => {
    const generationFile = async (dir: string, name: string) =>
      join(
        dir,
        (JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as { generation: string }).generation,
        name,
      );
    const source = await generationFile(indexDir, "lsa-projection.f32");
    const linkedDir = await mkdtemp(join(tmpdir(), "lk-update-linked-"));
    const writtenDir = await mkdtemp(join(tmpdir(), "lk-update-written-"));
    try {
      await updated.save(linkedDir);
      const linked = await stat(await generationFile(linkedDir, "lsa-projection.f32"));
      expect(linked.ino).toBe((await stat(source)).ino);
      expect((await KnowledgeBase.load(linkedDir)).fingerprint).toBe(updated.fingerprint);
      // The file it was read from vanished (a later save of that folder collected it): the bytes are written.
      const copy = `${source}.kept`;
      await rename(source, copy);
      try {
        await updated.save(writtenDir);
      } finally {
        await rename(copy, source);
      }
      expect((await stat(await generationFile(writtenDir, "lsa-projection.f32"))).ino).not.toBe(
        (await stat(source)).ino,
      );
      expect((await KnowledgeBase.load(writtenDir)).fingerprint).toBe(updated.fingerprint);
      // Written to in place since it was read (here with the same bytes, a minute later): never linked.
      await writeFile(source, await readFile(source));
      await utimes(source, new Date(), new Date(Date.now() + 60_000));
      await updated.save(writtenDir);
      expect((await stat(await generationFile(writtenDir, "lsa-projection.f32"))).ino).not.toBe(
        (await stat(source)).ino,
      );
      expect((await KnowledgeBase.load(writtenDir)).fingerprint).toBe(updated.fingerprint);
    } finally {
      await rm(linkedDir, { recursive: true, force: true });
      await rm(writtenDir, { recursive: true, force: true });
    }
  });

  it("saves and loads the updated index with the same answers, recording the update in the manifest", async () => {
    await updated.save(indexDir);
    const again = await KnowledgeBase.load(indexDir);
    expect(again.fingerprint).toBe(updated.fingerprint);
    expect(again.history).toMatchObject({ mode: "incremental", lsa: "kept" });
    const manifest = JSON.parse(await readFile(join(indexDir, "manifest.json"), "utf8")) as {
      history?: { mode: string; changedSinceFit: number };
    };
    // The edited section counts once (one chunk out, one in); the new file's two and the removed file's chunks count each.
    expect(manifest.history).toMatchObject({
      mode: "incremental",
      changedSinceFit: changes.chunksAdded + changes.chunksRemoved - 1,
    });
    for (const query of queries.slice(0, 10)) {
      expect(plain(again.l0.search(query, { domain: null, limit: 10 }))).toEqual(
        plain(updated.l0.search(query, { domain: null, limit: 10 })),
      );
      const options = { domain: null, k: 10, minScore: 0 };
      expect((await again.l1!.search(query, options)).map((hit) => hit.id)).toEqual(
        (await updated.l1!.search(query, options)).map((hit) => hit.id),
      );
    }
  });

  it("changes nothing when nothing changed", async () => {
    const { knowledgeBase, changes: none } = await rebuilt.update({ corpusDir: corpus });
    expect(none).toMatchObject({
      addedFiles: [],
      changedFiles: [],
      removedFiles: [],
      chunksAdded: 0,
      chunksRemoved: 0,
    });
    expect(knowledgeBase.fingerprint).toBe(rebuilt.fingerprint);
  });

  it("refuses to update a knowledge base built from ready-made chunks", async () => {
    const kb = await KnowledgeBase.fromChunks([
      { source: "a", file: "a", breadcrumb: [], content: "text", meta: { keywords: [], entities: [], aliases: [] } },
    ]);
    await expect(kb.update({ corpusDir: corpus })).rejects.toThrow(LookupKnowledgeError);
  });
});

describe("KnowledgeBase.update when the embeddings fail", () => {
  it("throws the embedding error and leaves the knowledge base it was called on answering as before", async () => {
    const corpus = await mkdtemp(join(tmpdir(), "lk-update-fail-"));
    try {
      await cp(join(REPO, "corpus"), corpus, { recursive: true });
      let fail = false;
      const embeddings = {
        embedDocuments: async (texts: string[]) => {
          if (fail) throw new Error("embedding service down");
          return texts.map((text) => [1, text.length % 7, 1 + (text.length % 3)]);
        },
        embedQuery: async (text: string) => [1, text.length % 7, 1],
      };
      const kb = await KnowledgeBase.build({ corpusDir: corpus, embeddings });
      const query = "account freeze for non-payment";
      const before = kb.l0.search(query, { domain: null, limit: 5 });
      expect(before.hints.titles).toContain("Account Freeze for Non-Payment");
      // The edited file drops its title and keywords: an update that went through would lose those hints.
      await writeFile(join(corpus, EDITED), "---\ntitle: Something Else\n---\nOther text.\n");
      await writeFile(join(corpus, ADDED), ADDED_FILE);
      fail = true;
      await expect(kb.update({ corpusDir: corpus })).rejects.toMatchObject({ code: "EMBEDDINGS_FAILED" });
      expect(plain(kb.l0.search(query, { domain: null, limit: 5 }))).toEqual(plain(before));
    } finally {
      await rm(corpus, { recursive: true, force: true });
    }
  }, 60_000);
});
