import { LookupKnowledgeError } from "../errors.js";

/**
 * Which files below the corpus folder are read, and how large a corpus, a file and a chunk may
 * grow. Names are matched against every path segment below the corpus folder (the folder itself
 * may be hidden or excluded: you chose it). Each limit is enforced by a split or a skip that names
 * it, never by an error: the defaults bound memory and are far above any ordinary corpus.
 */
export interface CorpusOptions {
  /**
   * Read dot-folders (`.github/`, `.obsidian/`) and dot-files too. Names in `exclude` stay
   * excluded, so `.git/` is still left out unless you also pass an `exclude` without it.
   * @default false
   */
  includeHidden?: boolean;
  /**
   * File and folder names never read, at any depth: exact names, no globs or slashes
   * (`["drafts", "TODO.md"]`). Passing a list replaces the default.
   * @default [".git", "node_modules"]
   */
  exclude?: readonly string[];
  /**
   * Largest file read, in bytes; a larger Markdown file is skipped with a reason.
   * @default 67108864 (64 MiB)
   */
  maxFileBytes?: number;
  /**
   * Largest chunk text, in bytes of UTF-8. A longer section is split into consecutive chunks
   * `<file>#<slug>`, `<file>#<slug>/2`, ...: as many whole paragraphs as fit, a longer paragraph
   * at line breaks, a longer line at spaces, and a run without any break at a character boundary.
   * Each file with split sections is reported once (`onWarning`), naming this limit. 64 KiB is
   * some 10,000 words, far beyond what ranks well as one passage (a SciFact abstract is under
   * 10 KB) or fits a model's evidence block, and keeps one line of a huge file from becoming one
   * huge chunk.
   * @default 65536 (64 KiB)
   */
  maxChunkBytes?: number;
  /**
   * Most chunks one file may give, counted after long sections are split. A file that would give
   * more is skipped with a reason naming this limit, not cut short: a partial file would answer
   * as if it were whole. 10,000 sections is a book of headings; a file at `maxFileBytes` split at
   * `maxChunkBytes` gives about 1,000.
   * @default 10000
   */
  maxChunksPerFile?: number;
  /**
   * Most Markdown files indexed. In a larger corpus the first `maxFiles` in sorted path order are
   * read and the rest are left out with one skip line, on the first file left out, giving their
   * count and naming this limit, so the indexed set is the same at every build. A million files
   * leaves room for a corpus of a million chunks while bounding what the listing holds (a few
   * hundred bytes a file).
   * @default 1000000
   */
  maxFiles?: number;
}

/** {@link CorpusOptions} with every default applied. */
export interface CorpusSettings {
  includeHidden: boolean;
  exclude: ReadonlySet<string>;
  maxFileBytes: number;
  maxChunkBytes: number;
  maxChunksPerFile: number;
  maxFiles: number;
}

/** The documented defaults of {@link CorpusOptions}. */
export const DEFAULT_CORPUS_OPTIONS = {
  includeHidden: false,
  exclude: [".git", "node_modules"],
  maxFileBytes: 64 * 1024 * 1024,
  maxChunkBytes: 64 * 1024,
  maxChunksPerFile: 10_000,
  maxFiles: 1_000_000,
} as const satisfies Required<CorpusOptions>;

/** Smallest `maxChunkBytes`: the longest UTF-8 character, so that every part fits. */
export const MIN_CHUNK_BYTES = 4;

function invalid(message: string): LookupKnowledgeError {
  return new LookupKnowledgeError("INVALID_OPTION", message);
}

function whole(name: string, value: unknown, min: number, unit: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    throw invalid(`corpus.${name} must be a whole number of ${unit} from ${min}, got ${String(value).slice(0, 40)}.`);
  }
  return value;
}

/**
 * Applies the defaults of {@link CorpusOptions} and checks the values.
 * @throws LookupKnowledgeError `INVALID_OPTION` for an exclude entry that is not a plain name or a bad size or count.
 */
export function resolveCorpusOptions(options: CorpusOptions = {}): CorpusSettings {
  const includeHidden = options.includeHidden ?? DEFAULT_CORPUS_OPTIONS.includeHidden;
  const exclude = options.exclude ?? DEFAULT_CORPUS_OPTIONS.exclude;
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_CORPUS_OPTIONS.maxFileBytes;
  if (typeof includeHidden !== "boolean") throw invalid(`corpus.includeHidden must be true or false, got ${String(includeHidden)}.`);
  if (!Array.isArray(exclude)) throw invalid("corpus.exclude must be a list of file or folder names.");
  for (const name of exclude) {
    if (typeof name !== "string" || name.length === 0 || name === "." || name === ".." || /[/\\]/.test(name)) {
      throw invalid(`corpus.exclude entries must be plain file or folder names without slashes, got ${JSON.stringify(name)}.`);
    }
  }
  if (!Number.isSafeInteger(maxFileBytes) || maxFileBytes < 1) throw invalid(`corpus.maxFileBytes must be a positive whole number of bytes, got ${String(maxFileBytes)}.`);
  const maxChunkBytes = whole("maxChunkBytes", options.maxChunkBytes ?? DEFAULT_CORPUS_OPTIONS.maxChunkBytes, MIN_CHUNK_BYTES, "bytes");
  const maxChunksPerFile = whole("maxChunksPerFile", options.maxChunksPerFile ?? DEFAULT_CORPUS_OPTIONS.maxChunksPerFile, 1, "chunks");
  const maxFiles = whole("maxFiles", options.maxFiles ?? DEFAULT_CORPUS_OPTIONS.maxFiles, 1, "files");
  return { includeHidden, exclude: new Set(exclude), maxFileBytes, maxChunkBytes, maxChunksPerFile, maxFiles };
}
