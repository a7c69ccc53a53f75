import { realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import type { IndexedFile } from "../corpus/load-corpus.js";
import type { CorpusOrigin } from "../knowledge-base/corpus-origin.js";
import type { SkippedFile } from "../types.js";
import { corpusDrift, describeDrift, hasDrift } from "./stale-index.js";

/** What the check needs of a loaded knowledge base. */
export interface CheckedIndex {
  corpusOrigin: Readonly<CorpusOrigin> | null;
  indexedFiles: readonly IndexedFile[] | null;
  skipped: readonly SkippedFile[];
}

/** Where the query looks for the corpus. */
export interface CorpusCheckOptions {
  /** The index folder, as given. */
  indexDir: string;
  /** `--corpus` when the user passed it. */
  corpus: string | undefined;
  /** The default corpus folder: compared only when `--corpus` is absent and it exists. */
  defaultCorpus: string;
}

/** `path` for a message: relative to the working folder when inside it, else absolute. */
export function shownPath(path: string, cwd: string = process.cwd()): string {
  const inside = relative(cwd, path);
  return isAbsolute(path) && inside !== "" && !inside.startsWith("..") && !isAbsolute(inside) ? inside : path;
}

/** `path` as one shell word. */
export function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}

const isFolder = (path: string) =>
  stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
const realOrResolved = (path: string) => realpath(path).catch(() => resolve(path));

/** The folders the index's corpus may be now: the recorded root, and the same folder relative to the index (a project moved whole). */
async function recordedFolders(origin: Readonly<CorpusOrigin>, indexDir: string): Promise<string[]> {
  const paths = [origin.root, ...(origin.fromIndex === undefined ? [] : [resolve(indexDir, origin.fromIndex)])];
  const found: string[] = [];
  for (const path of paths) if (await isFolder(path)) found.push(await realOrResolved(path));
  return found;
}

/**
 * The warnings (zero or one line, without a newline) a query prints about the index it answers
 * from: built from another folder than the one asked for (explicit `--corpus`, or the default folder
 * when it exists), or out of date with its corpus by content (see `compareCorpus`). An index built
 * from ready-made chunks is never checked; one that did not record its folder (saved by an older
 * version) is checked against the folder asked for, if any.
 */
export async function corpusWarnings(kb: CheckedIndex, options: CorpusCheckOptions): Promise<string[]> {
  const files = kb.indexedFiles;
  if (files === null) return [];
  const { indexDir } = options;
  const requested = options.corpus ?? ((await isFolder(options.defaultCorpus)) ? options.defaultCorpus : undefined);
  const origin = kb.corpusOrigin;
  const index = shellWord(indexDir);
  let source = requested;
  if (origin !== null) {
    const folders = await recordedFolders(origin, indexDir);
    // Where the corpus is now: the recorded root, else the same folder relative to a moved index.
    const built = shownPath(folders[0] ?? origin.root);
    // A corpus whose recorded folders are all gone may have moved: the content check below tells.
    if (options.corpus !== undefined && folders.length > 0 && !(await isFolder(options.corpus))) {
      return [
        `Warning: --corpus ${options.corpus} is not a folder; the index in ${indexDir} answers from ${built}, the folder it was built from.`,
      ];
    }
    if (
      requested !== undefined &&
      folders.length > 0 &&
      ![origin.root, ...folders].includes(await realOrResolved(requested))
    ) {
      const which = options.corpus === undefined ? " (the default corpus folder)" : "";
      return [
        `Warning: the index in ${indexDir} was built from ${built}, not from ${requested}${which}, and answers from ${built}; run \`lookup-knowledge index --corpus ${shellWord(requested)} --out ${index}\` to index ${requested}, or pass --corpus ${shellWord(built)}.`,
      ];
    }
    source ??= folders[0];
    if (source === undefined) {
      return [
        `Warning: cannot tell whether the index in ${indexDir} is up to date: ${built}, the folder it was built from, is gone; pass --corpus DIR to check it against the folder it moved to.`,
      ];
    }
  }
  if (source === undefined) return [];
  const savedAtMs =
    (await stat(join(indexDir, "manifest.json")).catch(() => null))?.mtimeMs ?? Number.POSITIVE_INFINITY;
  const drift = await corpusDrift(source, { files, skipped: kb.skipped, savedAtMs });
  if (!hasDrift(drift)) return [];
  const shown = isAbsolute(source) ? shownPath(source) : source;
  return [
    `Warning: the index in ${indexDir} is out of date with ${shown}: ${describeDrift(drift)}; run \`lookup-knowledge index --corpus ${shellWord(shown)} --out ${index}\` to update it.`,
  ];
}
