import { stat } from "node:fs/promises";
import { walkCorpus } from "../corpus/walk-corpus.js";

/**
 * True when a Markdown file the index would read changed after the index's manifest was written,
 * so that the CLI can say the answers come from an older corpus. It lists the corpus like the
 * index build does (`walkCorpus`: no hidden or excluded folders, symlinks only inside the corpus,
 * no FIFOs or devices) and compares modification times. Missing folders count as not stale.
 */
export async function corpusChangedSince(corpusDir: string, manifestFile: string): Promise<boolean> {
  const built = await stat(manifestFile).catch(() => null);
  if (built === null) return false;
  const listing = await walkCorpus(corpusDir).catch(() => null);
  return listing?.files.some((file) => file.mtimeMs > built.mtimeMs) ?? false;
}
