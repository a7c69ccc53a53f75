import { realpath } from "node:fs/promises";
import { isAbsolute, relative, resolve } from "node:path";

/**
 * The corpus folder an index was built or last updated from, as `manifest.json` records it.
 * `root` is its absolute real path (symlinks resolved) at that time; `fromIndex` is the same folder
 * relative to the index folder the manifest was saved in, so that a project moved or cloned with
 * its index and its corpus together still finds the folder its index came from.
 */
export interface CorpusOrigin {
  /** Absolute real path of the corpus folder when the index was built or updated. */
  root: string;
  /** `root` relative to the index folder (`../corpus`); absent until the index is saved. */
  fromIndex?: string;
}

/** The origin of a corpus folder read now: its real path (the folder exists: the corpus was just read). */
export async function corpusOriginOf(corpusDir: string): Promise<CorpusOrigin> {
  return { root: await realpath(corpusDir).catch(() => resolve(corpusDir)) };
}

/** What a save into `indexDir` records: the root, and the root relative to `indexDir`. */
export function recordedOrigin(origin: CorpusOrigin, indexDir: string): Required<CorpusOrigin> {
  return { root: origin.root, fromIndex: relative(resolve(indexDir), origin.root) || "." };
}

/** True when `value` is a usable recorded origin (an absolute root, a relative path from the index). */
export function isCorpusOrigin(value: unknown): value is Required<CorpusOrigin> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { root, fromIndex } = value as Record<string, unknown>;
  return (
    typeof root === "string" &&
    isAbsolute(root) &&
    typeof fromIndex === "string" &&
    fromIndex.length > 0 &&
    !isAbsolute(fromIndex)
  );
}
