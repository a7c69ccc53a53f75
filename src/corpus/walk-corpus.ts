import type { Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import { errorMessage, LookupKnowledgeError } from "../errors.js";
import type { SkippedFile } from "../types.js";
import { classifyEntry, type CorpusEntry, type EntryContext, type WalkedFolder } from "./corpus-entry.js";
import { resolveCorpusOptions, type CorpusOptions } from "./corpus-options.js";
import { describeFsError } from "./fs-reasons.js";

/** One Markdown file to read: where it was listed and which real file it is. */
export interface CorpusFile {
  /** Path relative to the corpus folder, with forward slashes, as listed (through symlinks). */
  file: string;
  /** Real path to open: every symlink on the way resolved. */
  path: string;
  /** Device and inode of the file when it was listed; reading checks it is still the same file. */
  dev: number;
  ino: number;
  /** Modification time when listed, in milliseconds since the epoch (for stale-index checks). */
  mtimeMs: number;
  /** Status-change time and size when listed: with the inode and mtime, what tells an unchanged file without reading it. */
  ctimeMs: number;
  size: number;
}

/** What {@link walkCorpus} found below the corpus folder. */
export interface CorpusListing {
  /** Regular Markdown files to read, each real file once, in sorted path order. */
  files: CorpusFile[];
  /** Entries left out with a reason: special files, symlinks leaving the folder, repeats, unreadable folders. */
  skipped: SkippedFile[];
  /** Markdown entries found, read or skipped (folders not counted). */
  markdownCount: number;
}

/** Regular Markdown files past `maxFiles`, counted but not listed: the first one's path and how many. */
interface OverLimit {
  first: string | null;
  count: number;
}

interface Walk extends EntryContext {
  /** Real folder path → the listed path it was first walked under. */
  folders: Map<string, string>;
  /** Device:inode → the listed path of the first file seen. */
  seen: Map<string, string>;
  listing: CorpusListing;
  overLimit: OverLimit;
}

/** Plain UTF-16 code unit order, the order of `Array.prototype.sort`. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sort key that makes a depth-first walk list paths in plain sorted order: folders sort as `name/`. */
function sortKey(entry: CorpusEntry): string {
  return entry.kind === "folder" ? `${entry.name}/` : entry.name;
}

async function walkFolder(walk: Walk, folder: WalkedFolder): Promise<void> {
  walk.folders.set(folder.real, folder.file);
  let dirents: Dirent[];
  try {
    dirents = await readdir(folder.real, { withFileTypes: true });
  } catch (error) {
    if (folder.file === "") throw new LookupKnowledgeError("CORPUS_NOT_FOUND", `corpus folder cannot be read (${errorMessage(error)}). Pass --corpus DIR (or corpusDir) pointing at a readable folder.`, { cause: error });
    walk.listing.skipped.push({ file: folder.file, reason: `folder cannot be read: ${describeFsError(error)}` });
    return;
  }
  const entries = (await Promise.all(dirents.map((dirent) => classifyEntry(walk, dirent, folder)))).filter((entry): entry is CorpusEntry => entry !== null);
  entries.sort((a, b) => compareStrings(sortKey(a), sortKey(b)));
  const { listing } = walk;
  for (const entry of entries) {
    if (entry.kind === "folder") {
      const first = walk.folders.get(entry.real);
      if (first === undefined) await walkFolder(walk, entry);
      else listing.skipped.push({ file: entry.file, reason: `same folder as ${JSON.stringify(first === "" ? "." : first)} (reached through a symlink); indexed once` });
    } else if (entry.kind === "skip") {
      if (entry.markdown) listing.markdownCount++;
      listing.skipped.push({ file: entry.file, reason: entry.reason });
    } else {
      listing.markdownCount++;
      const identity = `${entry.info.dev}:${entry.info.ino}`;
      const first = walk.seen.get(identity);
      if (first !== undefined) {
        listing.skipped.push({ file: entry.file, reason: `same file as ${JSON.stringify(first)} (reached through a symlink); indexed once` });
        continue;
      }
      walk.seen.set(identity, entry.file);
      if (listing.files.length >= walk.settings.maxFiles) {
        walk.overLimit.first ??= entry.file;
        walk.overLimit.count++;
        continue;
      }
      listing.files.push({ file: entry.file, path: entry.path, dev: entry.info.dev, ino: entry.info.ino, mtimeMs: entry.info.mtimeMs, ctimeMs: entry.info.ctimeMs, size: entry.info.size });
    }
  }
}

/**
 * Lists the Markdown files below `corpusDir` in sorted path order, without reading them. Dot-files,
 * dot-folders and the names in `exclude` are left out silently. Symlinks are followed when their
 * real path stays inside the corpus folder's real path and skipped with a reason otherwise; each
 * real folder is walked once (so symlink cycles end) and each real file is listed once, under the
 * first path in sorted order. FIFOs, sockets and devices named `*.md`, broken symlinks and
 * unreadable folders are listed in `skipped`. Past `maxFiles` files, the rest are counted, not
 * listed: one skip on the first of them gives their count and names the limit. Nothing is opened here.
 * @throws LookupKnowledgeError `CORPUS_NOT_FOUND` when the folder does not exist or cannot be read;
 * `INVALID_OPTION` for bad options.
 */
export async function walkCorpus(corpusDir: string, options: CorpusOptions = {}): Promise<CorpusListing> {
  const settings = resolveCorpusOptions(options);
  const info = await stat(corpusDir).catch(() => null);
  if (!info?.isDirectory()) {
    throw new LookupKnowledgeError(
      "CORPUS_NOT_FOUND",
      `corpus folder "${corpusDir}" does not exist or is not a folder. Pass --corpus DIR (or corpusDir) pointing at your Markdown files.`,
    );
  }
  const rootReal = await realpath(corpusDir);
  const walk: Walk = {
    settings,
    rootReal,
    folders: new Map(),
    seen: new Map(),
    listing: { files: [], skipped: [], markdownCount: 0 },
    overLimit: { first: null, count: 0 },
  };
  await walkFolder(walk, { file: "", real: rootReal });
  const { first, count } = walk.overLimit;
  if (first !== null) {
    const rest = count === 1 ? "not read" : `not read, nor the ${count - 1} Markdown files after it in sorted path order`;
    walk.listing.skipped.push({ file: first, reason: `${rest}: the corpus has more than corpus.maxFiles (${settings.maxFiles}) Markdown files; raise corpus.maxFiles to index them` });
  }
  return walk.listing;
}
