import { createHash } from "node:crypto";
import type { CorpusNote, DocumentRecord, IndexedFile, LoadedCorpus } from "../corpus/load-corpus.js";
import { skipReasonOf } from "../corpus/corpus-file-error.js";
import type { Chunk, SkippedFile } from "../types.js";
import { chunksOfDocument } from "./document-chunks.js";
import type { DocumentSettings } from "./document-options.js";
import type { ReadDocuments } from "./read-documents.js";

/** How a sync treats indexed sources it was not given: `incremental` keeps them, `full` removes them. */
export type CleanupMode = "incremental" | "full";

/** What a sync did, counted in documents, as LangChain's `index()` counts them. */
export interface SyncResult {
  /** Documents new to the index (a source or a location in it not indexed before). */
  numAdded: number;
  /** Documents whose content or metadata changed since they were indexed: their old chunks are replaced. */
  numUpdated: number;
  /** Documents indexed before with the same content and metadata: not split or embedded again. */
  numSkipped: number;
  /** Indexed documents that are gone: left out of a source that was given, or (`full`) of a source that was not. */
  numDeleted: number;
}

/** A previous index's sources: per source id, its records and its chunks in order. */
export type PreviousSources = ReadonlyMap<string, { file: IndexedFile; chunks: readonly Chunk[] }>;

/** The sources of an index built from documents, by source id (`files` in chunk order). */
export function previousSources(files: readonly IndexedFile[], chunks: readonly Chunk[]): PreviousSources {
  const previous = new Map<string, { file: IndexedFile; chunks: readonly Chunk[] }>();
  let at = 0;
  for (const file of files) {
    previous.set(file.file, { file, chunks: chunks.slice(at, at + file.chunkCount) });
    at += file.chunkCount;
  }
  return previous;
}

/** The previous chunks of each document of a source, by key. */
function chunksByKey(
  previous: { file: IndexedFile; chunks: readonly Chunk[] } | undefined,
): Map<string, { sha256: string; chunks: readonly Chunk[] }> {
  const byKey = new Map<string, { sha256: string; chunks: readonly Chunk[] }>();
  if (previous === undefined) return byKey;
  let at = 0;
  for (const { key, sha256, chunkCount } of previous.file.documents ?? []) {
    byKey.set(key, { sha256, chunks: previous.chunks.slice(at, at + chunkCount) });
    at += chunkCount;
  }
  return byKey;
}

function sourceHash(records: readonly DocumentRecord[]): string {
  const hash = createHash("sha256");
  for (const { key, sha256 } of records) hash.update(`${key}\u0000${sha256}\n`);
  return hash.digest("hex");
}

/**
 * The corpus a sync indexes: every source given, in source id order, each document's chunks
 * taken from `previous` when its key and hash are unchanged (the same objects, so nothing is split,
 * tokenized or embedded again) or made anew; with `incremental`, every indexed source not given
 * is kept as it was. A document that cannot be chunked is skipped with a reason; a source left with
 * no chunks is not indexed. Counts are per document (see {@link SyncResult}).
 */
export async function planDocumentSync(
  read: ReadDocuments,
  previous: PreviousSources,
  cleanup: CleanupMode,
  settings: DocumentSettings,
): Promise<{ corpus: LoadedCorpus; result: SyncResult }> {
  const result: SyncResult = { numAdded: 0, numUpdated: 0, numSkipped: 0, numDeleted: 0 };
  const skipped: SkippedFile[] = [...read.skipped];
  const ids = new Set(read.sources.keys());
  if (cleanup === "incremental") for (const id of previous.keys()) ids.add(id);
  const chunks: Chunk[] = [];
  const files: IndexedFile[] = [];
  const reused = new Set<string>();
  const notes: CorpusNote[] = [];
  // Chunk ids are unique in an index: those of kept sources first, then each document's in turn.
  const taken = new Set<string>();
  for (const id of ids)
    if (!read.sources.has(id)) for (const chunk of previous.get(id)!.chunks) taken.add(chunk.source);
  for (const id of [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const before = previous.get(id);
    const given = read.sources.get(id);
    if (given === undefined) {
      // Incremental, not given: kept whole.
      for (const chunk of before!.chunks) chunks.push(chunk);
      files.push(before!.file);
      reused.add(id);
      continue;
    }
    const old = chunksByKey(before);
    const records: DocumentRecord[] = [];
    const sourceChunks: Chunk[] = [];
    let unchanged = before !== undefined && given.length === old.size;
    for (const document of given) {
      const key = document.key ?? "";
      const named = key === "" ? id : `${id}#${key}`;
      const was = old.get(key);
      const same = was !== undefined && was.sha256 === document.sha256;
      let documentChunks: readonly Chunk[];
      try {
        documentChunks = same
          ? was.chunks
          : await chunksOfDocument(document, settings, (note) => notes.push({ file: named, note }));
      } catch (error) {
        skipped.push({ file: named, reason: skipReasonOf(error) });
        unchanged = false;
        continue;
      }
      const clash = documentChunks.find((chunk) => taken.has(chunk.source));
      if (clash !== undefined) {
        skipped.push({
          file: named,
          reason: `its chunk id ${JSON.stringify(clash.source)} is another document's too; give one of them another source id`,
        });
        unchanged = false;
        continue;
      }
      // A skipped document (above) stays in `old`: its earlier chunks leave the index, counted as deleted.
      old.delete(key);
      if (same) result.numSkipped++;
      else {
        unchanged = false;
        if (was !== undefined) result.numUpdated++;
        else result.numAdded++;
      }
      for (const chunk of documentChunks) {
        taken.add(chunk.source);
        sourceChunks.push(chunk);
      }
      records.push({ key, sha256: document.sha256, chunkCount: documentChunks.length });
    }
    result.numDeleted += old.size;
    if (sourceChunks.length === 0) continue;
    for (const chunk of sourceChunks) chunks.push(chunk);
    files.push({ file: id, sha256: sourceHash(records), chunkCount: sourceChunks.length, documents: records });
    if (unchanged && old.size === 0) reused.add(id);
  }
  if (cleanup === "full") {
    for (const [id, { file }] of previous) if (!read.sources.has(id)) result.numDeleted += file.documents?.length ?? 1;
  }
  skipped.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { corpus: { chunks, skipped, fileCount: ids.size, files, reused, notes }, result };
}
