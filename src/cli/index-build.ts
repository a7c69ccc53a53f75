import { describeCalibration } from "../calibration/calibration.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { KnowledgeBase } from "../knowledge-base/knowledge-base.js";
import type { IndexLock } from "../knowledge-base/index-lock.js";
import type { IndexChanges } from "../knowledge-base/update-index.js";
import { integerValue, type ParsedCommand } from "./command-spec.js";
import { createProgressBar } from "./progress.js";
import { stopRequested } from "./stop-signal.js";
import { openCliVectorStore } from "./pgvector-flags.js";
import { captureConsole } from "../console-capture.js";
import type { VectorStoreL1Option } from "../knowledge-base/vector-store-option.js";
import { DEFAULT_CORPUS_DIR, DEFAULT_LOCK_WAIT_SECONDS } from "./defaults.js";
import { documentsFlags } from "./index-documents-flags.js";
import { sweepLeftovers, withIndexLock } from "./index-lock-run.js";
import { shouldRebuild } from "./rebuild-decision.js";
import { errorDetail } from "../errors.js";

const DEFAULT_LOCK_WAIT_MS = DEFAULT_LOCK_WAIT_SECONDS * 1000;

/**
 * Builds both indexes from a corpus folder and saves them; returns the knowledge base. The writer
 * lock of `outDir` (`lock`, or one taken here) is held from before the corpus is read until the
 * save, so that no other writer commits a newer snapshot that this build would then replace.
 */
export async function buildAndSave(
  corpusDir: string,
  outDir: string,
  log: (line: string) => void,
  vectorStore?: VectorStoreL1Option,
  lock?: IndexLock,
): Promise<KnowledgeBase> {
  return withIndexLock(outDir, log, DEFAULT_LOCK_WAIT_MS, lock, (held) =>
    buildAndSaveLocked(corpusDir, outDir, log, vectorStore, held),
  );
}

async function buildAndSaveLocked(
  corpusDir: string,
  outDir: string,
  log: (line: string) => void,
  vectorStore: VectorStoreL1Option | undefined,
  lock: IndexLock,
): Promise<KnowledgeBase> {
  const bar = createProgressBar();
  const started = performance.now();
  const warn = (message: string) => (bar.done(), log(message));
  const kb = await KnowledgeBase.build({
    corpusDir,
    onProgress: bar.update,
    onWarning: warn,
    ...(vectorStore ? { vectorStore } : {}),
  });
  await kb.save(outDir, { onProgress: bar.update, onWarning: warn, lock });
  bar.done();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const where = vectorStore ? `; L1 rows in ${vectorStore.dialect.name}` : "";
  log(
    `Indexed ${kb.chunks.length} chunks from ${corpusDir} (${kb.domains.length} domains, ${kb.skipped.length} files skipped) into ${outDir}${where} in ${seconds} s; fingerprint ${kb.fingerprint}.`,
  );
  log(describeCalibration(kb.calibration));
  return kb;
}

function describeChanges(changes: IndexChanges): string {
  const files = `${changes.addedFiles.length} added, ${changes.changedFiles.length} changed, ${changes.removedFiles.length} removed, ${changes.unchangedFiles} unchanged files`;
  const chunks = `${changes.chunksAdded} chunks embedded, ${changes.chunksRemoved} removed, ${changes.chunksKept} kept`;
  const lsa =
    changes.lsa === "not-used" ? "" : `; embedder ${changes.lsa}${changes.lsaReason ? ` (${changes.lsaReason})` : ""}`;
  const rows = changes.storeRows
    ? `; store rows ${changes.storeRows.written} written, ${changes.storeRows.deleted} deleted`
    : "";
  return `${files}; ${chunks}; vectors ${changes.vectors}${lsa}${rows}`;
}

/** Files whose stat stamp an update changed while their content stayed (a touch, a checkout, a copy). */
function restamped(before: KnowledgeBase, after: KnowledgeBase): number {
  const stamps = new Map((before.indexedFiles ?? []).map((file) => [file.file, file.stamp]));
  return (after.indexedFiles ?? []).filter((file) => stamps.has(file.file) && stamps.get(file.file) !== file.stamp)
    .length;
}

/**
 * Updates the index in `outDir` from `corpusDir` in place of a rebuild, when it is an index built
 * from a corpus folder; returns null when there is none to update (the caller then builds). Only
 * an index that cannot be updated (damaged, of another format) is rebuilt: a failure of the
 * environment (permissions, a full disk, no scratch folder, another writer's lock) is thrown. The
 * writer lock (`lock`, or one taken here) is held from the load to the save.
 */
export async function updateAndSave(
  corpusDir: string,
  outDir: string,
  log: (line: string) => void,
  vectorStore?: VectorStoreL1Option,
  lock?: IndexLock,
): Promise<KnowledgeBase | null> {
  if (!existsSync(join(outDir, "manifest.json"))) return null;
  return withIndexLock(outDir, log, DEFAULT_LOCK_WAIT_MS, lock, (held) =>
    updateAndSaveLocked(corpusDir, outDir, log, vectorStore, held),
  );
}

async function updateAndSaveLocked(
  corpusDir: string,
  outDir: string,
  log: (line: string) => void,
  vectorStore: VectorStoreL1Option | undefined,
  lock: IndexLock,
): Promise<KnowledgeBase | null> {
  let previous: KnowledgeBase;
  try {
    previous = await KnowledgeBase.load(outDir, vectorStore ? { vectorStore, localVectors: true } : {});
  } catch (error) {
    // An index whose store was not named is the user's to point at, never to rebuild elsewhere.
    if (!shouldRebuild(error, "load")) throw error;
    log(`lookup-knowledge: rebuilding the index in ${outDir}: ${errorDetail(error)}`);
    return null;
  }
  const bar = createProgressBar();
  const started = performance.now();
  const warn = (message: string) => (bar.done(), log(message));
  let update: Awaited<ReturnType<KnowledgeBase["update"]>>;
  try {
    update = await previous.update({ corpusDir, onProgress: bar.update, onWarning: warn });
  } catch (error) {
    bar.done();
    // Not an index built from a folder, or one whose data turned out damaged when the update read it all: rebuild.
    if (!shouldRebuild(error, "update")) throw error;
    log(`lookup-knowledge: rebuilding the index in ${outDir}: ${errorDetail(error)}`);
    return null;
  }
  const { knowledgeBase, changes } = update;
  if (changes.addedFiles.length + changes.changedFiles.length + changes.removedFiles.length === 0) {
    const touched = restamped(previous, knowledgeBase);
    const moved = previous.corpusOrigin?.root !== knowledgeBase.corpusOrigin?.root;
    if (touched === 0 && !moved) {
      bar.done();
      log(
        `${outDir} is up to date with ${corpusDir}: ${changes.unchangedFiles} files unchanged, nothing saved; fingerprint ${knowledgeBase.fingerprint}.`,
      );
      return knowledgeBase;
    }
    // Same content: saved only so that queries find the new file times (and folder) and skip hashing.
    await knowledgeBase.save(outDir, { onProgress: bar.update, onWarning: warn, lock });
    bar.done();
    const what = [
      touched > 0 ? `the new times of ${touched} ${touched === 1 ? "file" : "files"} with unchanged content` : "",
      moved ? `the corpus folder ${corpusDir}` : "",
    ]
      .filter(Boolean)
      .join(" and ");
    log(
      `${outDir} is up to date with ${corpusDir}: ${changes.unchangedFiles} files unchanged; recorded ${what}; fingerprint ${knowledgeBase.fingerprint}.`,
    );
    return knowledgeBase;
  }
  await knowledgeBase.save(outDir, { onProgress: bar.update, onWarning: warn, lock });
  bar.done();
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  log(
    `Updated ${outDir} from ${corpusDir} in ${seconds} s: ${describeChanges(changes)}; ${knowledgeBase.chunks.length} chunks, fingerprint ${knowledgeBase.fingerprint}.`,
  );
  log(
    `${describeCalibration(knowledgeBase.calibration)} (kept from the last full build; \`index --full\` measures again)`,
  );
  return knowledgeBase;
}

/**
 * One index run: an update unless `full` or there is none to update, else a build; all of it
 * under the writer lock of `out` (waiting up to `lockWaitMs` for another writer), which first
 * removes what interrupted runs left there.
 * @throws LookupKnowledgeError `INDEX_LOCKED` when another writer keeps the lock past `lockWaitMs`.
 */
export async function indexOnce(
  corpus: string,
  out: string,
  full: boolean,
  log: (line: string) => void,
  vectorStore?: VectorStoreL1Option,
  lockWaitMs = DEFAULT_LOCK_WAIT_MS,
): Promise<void> {
  await withIndexLock(out, log, lockWaitMs, undefined, async (lock) => {
    await sweepLeftovers(out, log);
    if (!full && (await updateAndSave(corpus, out, log, vectorStore, lock)) !== null) return;
    await buildAndSave(corpus, out, log, vectorStore, lock);
  });
}

/**
 * Runs `run` with what a dependency prints through the console dropped: the CLI writes through its
 * own streams, and the library reports through `onWarning` and its errors.
 */
function silenced<T>(run: () => Promise<T>): Promise<T> {
  return captureConsole(run, () => {});
}

/**
 * Runs `lookup-knowledge index` once its command line is parsed: one run (over `--documents` when
 * given, else the corpus folder), then with `--watch` an update per batch of corpus changes until stopped.
 */
export async function runIndex(parsed: ParsedCommand, log: (line: string) => void): Promise<number> {
  const { values } = parsed;
  const documents = documentsFlags(parsed);
  const corpus = String(values.corpus ?? DEFAULT_CORPUS_DIR);
  const out = String(values.out);
  const full = values.full === true;
  const waitMs =
    integerValue("index", "lock-wait", String(values["lock-wait"] ?? DEFAULT_LOCK_WAIT_SECONDS), 0, 86_400) * 1000;
  const input = documents && (await (await import("./documents-input.js")).documentsInput(documents.documents));
  const store = await openCliVectorStore(values).catch(async (error: unknown) => {
    await input?.close();
    throw error;
  });
  const once = async () => {
    if (!input || !documents) return indexOnce(corpus, out, full, log, store.vectorStore, waitMs);
    const { indexDocumentsOnce } = await import("./index-documents.js");
    const { cleanup, sourceIdKey } = documents;
    await indexDocumentsOnce({
      input,
      out,
      full,
      cleanup,
      sourceIdKey,
      log,
      vectorStore: store.vectorStore,
      lockWaitMs: waitMs,
    });
  };
  try {
    try {
      await silenced(once);
    } catch (error) {
      // The first run failed: the table (or indexes) this run created hold nothing an index records.
      await store.dropCreated();
      throw error;
    }
    store.keepCreated();
    if (values.watch === true) {
      const { watchCorpus } = await import("./index-watch.js");
      await watchCorpus({
        corpus,
        out,
        log,
        update: () => silenced(() => indexOnce(corpus, out, false, log, store.vectorStore, waitMs)),
        stop: stopRequested(),
      });
    }
    return 0;
  } finally {
    await store.close();
  }
}
