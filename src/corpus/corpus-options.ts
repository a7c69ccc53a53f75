import { LookupKnowledgeError } from "../errors.js";

/**
 * Which files below the corpus folder are read. Names are matched against every path segment
 * below the corpus folder (the folder itself may be hidden or excluded: you chose it).
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
}

/** {@link CorpusOptions} with every default applied. */
export interface CorpusSettings {
  includeHidden: boolean;
  exclude: ReadonlySet<string>;
  maxFileBytes: number;
}

/** The documented defaults of {@link CorpusOptions}. */
export const DEFAULT_CORPUS_OPTIONS = {
  includeHidden: false,
  exclude: [".git", "node_modules"],
  maxFileBytes: 64 * 1024 * 1024,
} as const satisfies Required<CorpusOptions>;

function invalid(message: string): LookupKnowledgeError {
  return new LookupKnowledgeError("INVALID_OPTION", message);
}

/**
 * Applies the defaults of {@link CorpusOptions} and checks the values.
 * @throws LookupKnowledgeError `INVALID_OPTION` for an exclude entry that is not a plain name or a bad size.
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
  return { includeHidden, exclude: new Set(exclude), maxFileBytes };
}
