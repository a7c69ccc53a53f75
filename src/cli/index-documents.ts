import { existsSync } from "node:fs";
import { join } from "node:path";
import { describeCalibration } from "../calibration/calibration.js";
import { errorDetail } from "../errors.js";
import type { CleanupMode, SyncResult } from "../documents/sync-documents-plan.js";
import { isDocumentIndex } from "../knowledge-base/document-sync.js";
import type { IndexLock } from "../knowledge-base/index-lock.js";
import { KnowledgeBase } from "../knowledge-base/knowledge-base.js";
import type { VectorStoreL1Option } from "../knowledge-base/vector-store-option.js";
import type { DocumentsInput } from "./documents-input.js";
import { readJsonlDocuments, type JsonlDocument, type JsonlTally } from "./documents-jsonl.js";
import { skipByLine } from "./skip-lines.js";
import { sweepLeftovers, withIndexLock } from "./index-lock-run.js";
import { createProgressBar } from "./progress.js";
import { shouldRebuild } from "./rebuild-decision.js";

/** One `index --documents` run, its flags resolved. */
export interface DocumentsRun {
  input: DocumentsInput;
  out: string;
  /** Rebuild from the documents instead of syncing the index in `out`. */
  full: boolean;
  cleanup: CleanupMode;
  sourceIdKey: string;
  log: (line: string) => void;
  vectorStore: VectorStoreL1Option | undefined;
  lockWaitMs: number;
}

/** One read of the input: the documents as they stream, what was counted, and the warning channel that names lines. */
interface Reading {
  documents: AsyncIterable<JsonlDocument>;
  tally: JsonlTally;
  warn: (message: string) => void;
  bar: ReturnType<typeof createProgressBar>;
}

async function reading(run: DocumentsRun): Promise<Reading> {
  const bar = createProgressBar();
  const tally: JsonlTally = { lines: 0, skippedLines: 0, lineOfDocument: [], lineOfSource: new Map() };
  const warn = (message: string) => (bar.done(), run.log(skipByLine(message, run.input.name, tally)));
  const documents = readJsonlDocuments(await run.input.open(), tally, {
    onSkip: (line, reason) => warn(`lookup-knowledge: ${run.input.name} line ${line} skipped: ${reason}`),
    sourceIdKey: run.sourceIdKey,
  });
  return { documents, tally, warn, bar };
}

/** The summary's counts: lines read and skipped, documents, the sync's counts and the documents the library skipped. */
function counts({ tally }: Reading, result: SyncResult, notIndexed: number): string {
  const { lines, skippedLines, lineOfDocument } = tally;
  const of = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
  return `${of(lines, "line")} read, ${of(lineOfDocument.length, "document")}, ${of(skippedLines, "line")} skipped; documents ${result.numAdded} added, ${result.numUpdated} updated, ${result.numSkipped} skipped (unchanged), ${result.numDeleted} deleted, ${notIndexed} not indexed`;
}

const seconds = (started: number) => ((performance.now() - started) / 1000).toFixed(2);

async function buildLocked(run: DocumentsRun, lock: IndexLock): Promise<void> {
  const started = performance.now();
  const read = await reading(run);
  const kb = await KnowledgeBase.fromDocuments(read.documents, {
    sourceIdKey: run.sourceIdKey,
    onProgress: read.bar.update,
    onWarning: read.warn,
    ...(run.vectorStore ? { vectorStore: run.vectorStore } : {}),
  });
  await kb.save(run.out, { onProgress: read.bar.update, onWarning: read.warn, lock });
  read.bar.done();
  const added = read.tally.lineOfDocument.length - kb.skipped.length;
  const result = { numAdded: added, numUpdated: 0, numSkipped: 0, numDeleted: 0 };
  const where = run.vectorStore ? `; L1 rows in ${run.vectorStore.dialect.name}` : "";
  run.log(
    `Indexed ${kb.chunks.length} chunks from ${run.input.name} (${counts(read, result, kb.skipped.length)}) into ${run.out}${where} in ${seconds(started)} s; fingerprint ${kb.fingerprint}.`,
  );
  run.log(describeCalibration(kb.calibration));
}

/** Syncs the index in `out` when it was built from documents; false when there is none to sync (the caller builds). */
async function syncLocked(run: DocumentsRun, lock: IndexLock): Promise<boolean> {
  if (!existsSync(join(run.out, "manifest.json"))) return false;
  const rebuilding = (why: string) => (run.log(`lookup-knowledge: rebuilding the index in ${run.out}: ${why}`), false);
  let previous: KnowledgeBase;
  try {
    previous = await KnowledgeBase.load(
      run.out,
      run.vectorStore ? { vectorStore: run.vectorStore, localVectors: true } : {},
    );
  } catch (error) {
    if (!shouldRebuild(error, "load")) throw error;
    return rebuilding(errorDetail(error));
  }
  const files = previous.indexedFiles;
  if (!isDocumentIndex({ files })) {
    const from = files === null ? "ready-made chunks" : files.length === 0 ? "no source at all" : "a corpus folder";
    return rebuilding(`it was built from ${from}, not from documents`);
  }
  const started = performance.now();
  const read = await reading(run);
  let synced: Awaited<ReturnType<KnowledgeBase["syncDocuments"]>>;
  try {
    synced = await previous.syncDocuments(read.documents, {
      cleanup: run.cleanup,
      sourceIdKey: run.sourceIdKey,
      onProgress: read.bar.update,
      onWarning: read.warn,
    });
  } catch (error) {
    read.bar.done();
    // Data found damaged when the sync read it all: rebuild (a file is read again; stdin cannot be).
    if (!shouldRebuild(error, "update")) throw error;
    return rebuilding(errorDetail(error));
  }
  const { knowledgeBase, result, changes } = synced;
  const said = counts(read, result, knowledgeBase.skipped.length);
  if (result.numAdded + result.numUpdated + result.numDeleted === 0) {
    read.bar.done();
    run.log(
      `${run.out} is up to date with ${run.input.name}: ${said}; nothing saved; fingerprint ${knowledgeBase.fingerprint}.`,
    );
    return true;
  }
  await knowledgeBase.save(run.out, { onProgress: read.bar.update, onWarning: read.warn, lock });
  read.bar.done();
  const rows = changes.storeRows
    ? `; store rows ${changes.storeRows.written} written, ${changes.storeRows.deleted} deleted`
    : "";
  run.log(
    `Synced ${run.out} with ${run.input.name} (cleanup ${run.cleanup}) in ${seconds(started)} s: ${said}; chunks ${changes.chunksAdded} embedded, ${changes.chunksRemoved} removed, ${changes.chunksKept} kept${rows}; ${knowledgeBase.chunks.length} chunks, fingerprint ${knowledgeBase.fingerprint}.`,
  );
  return true;
}

/**
 * One `index --documents` run under the writer lock of `out` (leftovers of interrupted runs
 * removed first): a sync of the index there when it was built from documents, unless `full`;
 * else a build from the documents, which replaces any other index there.
 * @throws LookupKnowledgeError `INDEX_LOCKED`, `DOCUMENTS_UNREADABLE`, and the errors of a build, sync or save.
 */
export async function indexDocumentsOnce(run: DocumentsRun): Promise<void> {
  try {
    await withIndexLock(run.out, run.log, run.lockWaitMs, undefined, async (lock) => {
      await sweepLeftovers(run.out, run.log);
      if (!run.full && (await syncLocked(run, lock))) return;
      await buildLocked(run, lock);
    });
  } finally {
    await run.input.close();
  }
}
