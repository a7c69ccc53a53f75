import { createHash } from "node:crypto";
import type { Chunk, SkippedFile } from "../types.js";
import { skipReasonOf } from "./corpus-file-error.js";
import { resolveCorpusOptions, type CorpusOptions } from "./corpus-options.js";
import { parseMarkdownFile } from "./parse-markdown-file.js";
import { readCorpusFile } from "./read-corpus-file.js";
import { walkCorpus, type CorpusFile } from "./walk-corpus.js";

/** One indexed corpus file: its path, the SHA-256 of its bytes, and how many chunks it gave. */
export interface IndexedFile {
  /** Path of the file relative to the corpus folder, with forward slashes. */
  file: string;
  /** Hex SHA-256 of the file's bytes when it was read. */
  sha256: string;
  /** Number of chunks the file gave (consecutive in the chunk list). */
  chunkCount: number;
  /** The file's identity when it was read (device, inode, size, mtime, ctime), to skip reading it again while unchanged. */
  stamp?: string;
}

/** A file's identity as the walk saw it (device, inode, size, mtime, ctime): any write changes its ctime, whatever it does to the mtime. */
export function stampOf(entry: CorpusFile): string {
  return `${entry.dev}:${entry.ino}:${entry.size}:${entry.mtimeMs}:${entry.ctimeMs}`;
}

/** Chunks of an earlier load, by file, with the content hash they were read from. */
export type PreviousFiles = ReadonlyMap<string, { sha256: string; stamp?: string; chunks: readonly Chunk[] }>;

/** What {@link loadCorpus} read: the chunks of every usable file and the files it skipped. */
export interface LoadedCorpus {
  chunks: Chunk[];
  /** Entries not indexed, each with its reason, sorted by path. */
  skipped: SkippedFile[];
  /** Number of Markdown files found, indexed or not. */
  fileCount: number;
  /** The indexed files in chunk order (their chunks are consecutive). */
  files: IndexedFile[];
  /** Files whose chunks were taken from `previous` because their bytes did not change. */
  reused: Set<string>;
}

/**
 * Reads every Markdown file below `corpusDir` (see `walkCorpus` for which ones, in sorted order)
 * and chunks it. Any failure of one file (unreadable, not a regular file, invalid UTF-8, refused or
 * malformed frontmatter, no text, ...) skips that file with a reason in `skipped`; the rest are
 * indexed and the load never aborts for one file. A file whose bytes hash as in `previous` is not
 * parsed again: its previous chunks are reused, so the result equals a fresh load; a file whose
 * inode, size, mtime and ctime are as recorded is not even read.
 * @throws LookupKnowledgeError `CORPUS_NOT_FOUND` when the folder does not exist or cannot be
 * listed; `INVALID_OPTION` for bad options.
 */
export async function loadCorpus(corpusDir: string, options: CorpusOptions = {}, previous: PreviousFiles = new Map()): Promise<LoadedCorpus> {
  const { maxFileBytes } = resolveCorpusOptions(options);
  const listing = await walkCorpus(corpusDir, options);
  const chunks: Chunk[] = [];
  const skipped: SkippedFile[] = [...listing.skipped];
  const files: IndexedFile[] = [];
  const reused = new Set<string>();
  for (const entry of listing.files) {
    const stamp = stampOf(entry);
    const same = previous.get(entry.file);
    if (same?.stamp === stamp) {
      // Same inode, size, mtime and ctime as when it was hashed: not read again.
      for (const chunk of same.chunks) chunks.push(chunk);
      files.push({ file: entry.file, sha256: same.sha256, chunkCount: same.chunks.length, stamp });
      reused.add(entry.file);
      continue;
    }
    try {
      const bytes = await readCorpusFile(entry, maxFileBytes);
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      const before = previous.get(entry.file);
      const fileChunks = before !== undefined && before.sha256 === sha256 ? before.chunks : parseMarkdownFile(entry.file, bytes);
      if (fileChunks === before?.chunks) reused.add(entry.file);
      // One push per chunk: spreading a file of 100,000+ sections into push() would overflow the stack.
      for (const chunk of fileChunks) chunks.push(chunk);
      files.push({ file: entry.file, sha256, chunkCount: fileChunks.length, stamp });
    } catch (error) {
      skipped.push({ file: entry.file, reason: skipReasonOf(error) });
    }
  }
  skipped.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { chunks, skipped, fileCount: listing.markdownCount, files, reused };
}
