import type { Chunk, SkippedFile } from "../types.js";
import { skipReasonOf } from "./corpus-file-error.js";
import { resolveCorpusOptions, type CorpusOptions } from "./corpus-options.js";
import { parseMarkdownFile } from "./parse-markdown-file.js";
import { readCorpusFile } from "./read-corpus-file.js";
import { walkCorpus } from "./walk-corpus.js";

/** What {@link loadCorpus} read: the chunks of every usable file and the files it skipped. */
export interface LoadedCorpus {
  chunks: Chunk[];
  /** Entries not indexed, each with its reason, sorted by path. */
  skipped: SkippedFile[];
  /** Number of Markdown files found, indexed or not. */
  fileCount: number;
}

/**
 * Reads every Markdown file below `corpusDir` (see `walkCorpus` for which ones, in sorted order)
 * and chunks it. Any failure of one file (unreadable, not a regular file, invalid UTF-8, refused or
 * malformed frontmatter, no text, ...) skips that file with a reason in `skipped`; the rest are
 * indexed and the load never aborts for one file.
 * @throws LookupKnowledgeError `CORPUS_NOT_FOUND` when the folder does not exist or cannot be
 * listed; `INVALID_OPTION` for bad options.
 */
export async function loadCorpus(corpusDir: string, options: CorpusOptions = {}): Promise<LoadedCorpus> {
  const { maxFileBytes } = resolveCorpusOptions(options);
  const listing = await walkCorpus(corpusDir, options);
  const chunks: Chunk[] = [];
  const skipped: SkippedFile[] = [...listing.skipped];
  for (const entry of listing.files) {
    try {
      // One push per chunk: spreading a file of 100,000+ sections into push() would overflow the stack.
      for (const chunk of parseMarkdownFile(entry.file, await readCorpusFile(entry, maxFileBytes))) chunks.push(chunk);
    } catch (error) {
      skipped.push({ file: entry.file, reason: skipReasonOf(error) });
    }
  }
  skipped.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { chunks, skipped, fileCount: listing.markdownCount };
}
