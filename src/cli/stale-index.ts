import { createHash } from "node:crypto";
import { stampOf, type IndexedFile } from "../corpus/load-corpus.js";
import { DEFAULT_CORPUS_OPTIONS } from "../corpus/corpus-options.js";
import { readCorpusFile } from "../corpus/read-corpus-file.js";
import { walkCorpus, type CorpusFile, type CorpusListing } from "../corpus/walk-corpus.js";
import type { SkippedFile } from "../types.js";

/** How a corpus folder differs from the files an index was built from; each list sorted. */
export interface CorpusDrift {
  /** Markdown files the index has never seen. */
  added: string[];
  /** Indexed files whose bytes now hash otherwise (or that can no longer be read). */
  changed: string[];
  /** Indexed files that are gone from the folder. */
  removed: string[];
}

/** What the index recorded about its corpus files. */
export interface IndexedCorpus {
  /** The indexed files with their SHA-256 and stat stamps (`files.json`). */
  files: readonly IndexedFile[];
  /** Files the build skipped (they have no hash). */
  skipped: readonly SkippedFile[];
  /** When the index was saved (ms since the epoch): a skipped file written later counts as changed. */
  savedAtMs: number;
}

/** SHA-256 (hex) of a listed corpus file, null when it cannot be read. */
export type HashCorpusFile = (entry: CorpusFile) => Promise<string | null>;

/** Hashes a file as the index build does (its bytes, read through the same checks). */
export const hashCorpusFile: HashCorpusFile = async (entry) => {
  const bytes = await readCorpusFile(entry, DEFAULT_CORPUS_OPTIONS.maxFileBytes).catch(() => null);
  return bytes === null ? null : createHash("sha256").update(bytes).digest("hex");
};

/**
 * Compares a listing of the corpus with what the index recorded, by content: a file whose stat
 * stamp (device, inode, size, mtime, ctime) is as recorded is unchanged without being read; any
 * other file is hashed, so a `touch` or a copy with the same bytes is not a change. A skipped file
 * (no hash) counts as changed when it was written after the index was saved.
 */
export async function compareCorpus(
  listing: CorpusListing,
  indexed: IndexedCorpus,
  hash: HashCorpusFile = hashCorpusFile,
): Promise<CorpusDrift> {
  const known = new Map(indexed.files.map((file) => [file.file, file]));
  const skipped = new Set(indexed.skipped.map((entry) => entry.file));
  const drift: CorpusDrift = { added: [], changed: [], removed: [] };
  const listed = new Set<string>();
  for (const entry of listing.files) {
    listed.add(entry.file);
    const record = known.get(entry.file);
    if (record === undefined) {
      if (!skipped.has(entry.file)) drift.added.push(entry.file);
      else if (Math.max(entry.mtimeMs, entry.ctimeMs) > indexed.savedAtMs) drift.changed.push(entry.file);
      continue;
    }
    if (record.stamp === stampOf(entry)) continue;
    if ((await hash(entry)) !== record.sha256) drift.changed.push(entry.file);
  }
  for (const file of known.keys()) if (!listed.has(file)) drift.removed.push(file);
  for (const list of [drift.added, drift.changed, drift.removed]) list.sort();
  return drift;
}

/** Lists `corpusDir` as the index build does and compares it with the index; null when the folder cannot be listed. */
export async function corpusDrift(
  corpusDir: string,
  indexed: IndexedCorpus,
  hash: HashCorpusFile = hashCorpusFile,
): Promise<CorpusDrift | null> {
  const listing = await walkCorpus(corpusDir).catch(() => null);
  return listing === null ? null : compareCorpus(listing, indexed, hash);
}

/** True when the drift holds any change. */
export const hasDrift = (drift: CorpusDrift | null): drift is CorpusDrift =>
  drift !== null && drift.added.length + drift.changed.length + drift.removed.length > 0;

/** `2 changed (a.md, b.md), 1 added (c.md)`: counts with up to 3 names each, for one warning line. */
export function describeDrift(drift: CorpusDrift): string {
  const part = (label: string, files: string[]) => {
    if (files.length === 0) return [];
    const names = files
      .slice(0, 3)
      .map((file) => JSON.stringify(file))
      .join(", ");
    return [`${files.length} ${label} (${names}${files.length > 3 ? `, and ${files.length - 3} more` : ""})`];
  };
  return [...part("changed", drift.changed), ...part("added", drift.added), ...part("removed", drift.removed)].join(
    ", ",
  );
}
