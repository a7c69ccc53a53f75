import type { Dirent, Stats } from "node:fs";
import { lstat, realpath } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import type { CorpusSettings } from "./corpus-options.js";
import { describeFileKind, describeFsError } from "./fs-reasons.js";

/** The file name pattern of Markdown files. */
export const MARKDOWN_FILE = /\.(md|markdown)$/i;

/** What one directory entry is to the corpus walk; entries the walk ignores are `null`. */
export type CorpusEntry =
  | { kind: "folder"; name: string; file: string; real: string }
  | { kind: "markdown"; name: string; file: string; path: string; info: Stats }
  | { kind: "skip"; name: string; file: string; reason: string; markdown: boolean };

/** A folder being walked: its path as listed (relative, `""` for the root) and its real path. */
export interface WalkedFolder {
  file: string;
  real: string;
}

/** What classifying needs to know about the walk. */
export interface EntryContext {
  settings: CorpusSettings;
  /** Real path of the corpus folder. */
  rootReal: string;
}

function isInside(rootReal: string, real: string): boolean {
  const rel = relative(rootReal, real);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

async function classifySymlink(context: EntryContext, name: string, file: string, linkPath: string): Promise<CorpusEntry | null> {
  const markdown = MARKDOWN_FILE.test(name);
  const skip = (reason: string, isMarkdown = markdown): CorpusEntry => ({ kind: "skip", name, file, reason, markdown: isMarkdown });
  let real: string;
  try {
    real = await realpath(linkPath);
  } catch (error) {
    return markdown ? skip(`broken symlink: ${describeFsError(error)}`) : null;
  }
  // lstat of the resolved path: a target swapped for a symlink since realpath shows up here.
  const info = await lstat(real).catch(() => null);
  if (info === null || info.isSymbolicLink()) return markdown ? skip("the symlink changed while the corpus was listed") : null;
  if (!isInside(context.rootReal, real)) {
    if (info.isDirectory()) return skip("symlink to a folder outside the corpus folder; not followed", false);
    return markdown ? skip("symlink pointing outside the corpus folder; not followed") : null;
  }
  if (info.isDirectory()) return { kind: "folder", name, file, real };
  if (!markdown) return null;
  return info.isFile() ? { kind: "markdown", name, file, path: real, info } : skip(`not a regular file (${describeFileKind(info)})`);
}

/**
 * Classifies one directory entry without opening it: left out (hidden, excluded, not Markdown),
 * a folder to walk, a regular Markdown file (with its stats), or a skip with its reason. A symlink
 * counts as what it points at when its real path is inside the corpus folder.
 */
export async function classifyEntry(context: EntryContext, entry: Dirent, parent: WalkedFolder): Promise<CorpusEntry | null> {
  const { name } = entry;
  if ((!context.settings.includeHidden && name.startsWith(".")) || context.settings.exclude.has(name)) return null;
  const file = parent.file === "" ? name : `${parent.file}/${name}`;
  const real = join(parent.real, name);
  if (entry.isSymbolicLink()) return classifySymlink(context, name, file, real);
  if (entry.isDirectory()) return { kind: "folder", name, file, real };
  if (!MARKDOWN_FILE.test(name)) return null;
  let info: Stats;
  try {
    info = await lstat(real);
  } catch (error) {
    return { kind: "skip", name, file, markdown: true, reason: `cannot be read: ${describeFsError(error)}` };
  }
  if (info.isFile()) return { kind: "markdown", name, file, path: real, info };
  return { kind: "skip", name, file, markdown: true, reason: `not a regular file (${describeFileKind(info)})` };
}
