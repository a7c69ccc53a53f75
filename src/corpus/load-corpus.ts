import { createHash } from "node:crypto";
import type { Chunk, SkippedFile } from "../types.js";
import { skipReasonOf } from "./corpus-file-error.js";
import { resolveCorpusOptions, type CorpusOptions } from "./corpus-options.js";
import { parseMarkdownFile, type ChunkLimits } from "./parse-markdown-file.js";
import { fitsBytes } from "./split-long-text.js";
import { readCorpusFile } from "./read-corpus-file.js";
import { walkCorpus, type CorpusFile } from "./walk-corpus.js";

/** One indexed corpus file: its path, the SHA-256 of its bytes, and how many chunks it gave. */
export interface IndexedFile {
  /** The file's path relative to the corpus folder, with forward slashes; a source id for an index built from documents. */
  file: string;
  /** SHA-256 of the file's bytes (of its documents' hashes for a source of documents), hex. */
  sha256: string;
  /** How many chunks it gave; its chunks follow those of the files before it. */
  chunkCount: number;
  /** The file's identity when it was read (device, inode, size, mtime, ctime), to skip reading it again while unchanged. */
  stamp?: string;
  /**
   * For a source of LangChain documents (`file` is its source id): its documents in chunk order,
   * each with its key within the source (`""` for a source's only document without a location),
   * the SHA-256 of its content and metadata, and its chunk count.
   */
  documents?: DocumentRecord[];
}

/** One LangChain document of an indexed source, as `files.json` records it. */
export interface DocumentRecord {
  /** The document's key within its source (`page-3`, `line-12`, `part-2`), `""` for a source's only document without a location. */
  key: string;
  /** SHA-256 of the document's page content and metadata (keys sorted), hex. */
  sha256: string;
  /** How many chunks the document gave; its chunks follow those of the documents before it. */
  chunkCount: number;
}

/** A file's identity as the walk saw it (device, inode, size, mtime, ctime): any write changes its ctime, whatever it does to the mtime. */
export function stampOf(entry: CorpusFile): string {
  return `${entry.dev}:${entry.ino}:${entry.size}:${entry.mtimeMs}:${entry.ctimeMs}`;
}

/** Chunks of an earlier load, by file, with the content hash they were read from. */
export type PreviousFiles = ReadonlyMap<string, { sha256: string; stamp?: string; chunks: readonly Chunk[] }>;

/** Something an indexed file's chunks differ by from its sections (today: long sections split), in one line naming the limit. */
export interface CorpusNote {
  file: string;
  note: string;
}

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
  /** Indexed files whose long sections were split, one note each, in file order (none for reused files). */
  notes: CorpusNote[];
}

/** True when chunks of an earlier load still keep within `limits` (a limit may have been lowered since). */
function withinLimits(chunks: readonly Chunk[], limits: ChunkLimits): boolean {
  return chunks.length <= limits.maxChunksPerFile && chunks.every((chunk) => fitsBytes(chunk.content, limits.maxChunkBytes));
}

/**
 * Reads every Markdown file below `corpusDir` (see `walkCorpus` for which ones, in sorted order)
 * and chunks it. Any failure of one file (unreadable, not a regular file, invalid UTF-8, refused or
 * malformed frontmatter, no text, ...) skips that file with a reason in `skipped`; the rest are
 * indexed and the load never aborts for one file. A file whose bytes hash as in `previous` is not
 * parsed again: its previous chunks are reused, so the result equals a fresh load; a file whose
 * inode, size, mtime and ctime are as recorded is not even read. Previous chunks over a limit
 * lowered since are not reused: the file is chunked again. Files whose long sections were split
 * get a note in `notes`; more files than `maxFiles` leave the rest out with one skip (see `walkCorpus`).
 * @throws LookupKnowledgeError `CORPUS_NOT_FOUND` when the folder does not exist or cannot be
 * listed; `INVALID_OPTION` for bad options.
 */
export async function loadCorpus(corpusDir: string, options: CorpusOptions = {}, previous: PreviousFiles = new Map()): Promise<LoadedCorpus> {
  const settings = resolveCorpusOptions(options);
  const listing = await walkCorpus(corpusDir, options);
  const chunks: Chunk[] = [];
  const skipped: SkippedFile[] = [...listing.skipped];
  const files: IndexedFile[] = [];
  const reused = new Set<string>();
  const notes: CorpusNote[] = [];
  for (const entry of listing.files) {
    const stamp = stampOf(entry);
    const same = previous.get(entry.file);
    const kept = same !== undefined && withinLimits(same.chunks, settings) ? same : undefined;
    if (kept?.stamp === stamp) {
      // Same inode, size, mtime and ctime as when it was hashed: not read again.
      for (const chunk of kept.chunks) chunks.push(chunk);
      files.push({ file: entry.file, sha256: kept.sha256, chunkCount: kept.chunks.length, stamp });
      reused.add(entry.file);
      continue;
    }
    try {
      const bytes = await readCorpusFile(entry, settings.maxFileBytes);
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      let fileChunks: readonly Chunk[];
      if (kept !== undefined && kept.sha256 === sha256) {
        fileChunks = kept.chunks;
        reused.add(entry.file);
      } else {
        const parsed = parseMarkdownFile(entry.file, bytes, settings);
        fileChunks = parsed.chunks;
        if (parsed.note !== null) notes.push({ file: entry.file, note: parsed.note });
      }
      // One push per chunk: spreading a file of 100,000+ sections into push() would overflow the stack.
      for (const chunk of fileChunks) chunks.push(chunk);
      files.push({ file: entry.file, sha256, chunkCount: fileChunks.length, stamp });
    } catch (error) {
      skipped.push({ file: entry.file, reason: skipReasonOf(error) });
    }
  }
  skipped.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { chunks, skipped, fileCount: listing.markdownCount, files, reused, notes };
}
