import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

/**
 * True when a Markdown file below `corpusDir` changed after the index's manifest was written,
 * so that the CLI can say the answers come from an older corpus. Missing folders count as not stale.
 */
export async function corpusChangedSince(corpusDir: string, manifestFile: string): Promise<boolean> {
  const built = await stat(manifestFile).catch(() => null);
  const entries = await readdir(corpusDir, { withFileTypes: true, recursive: true }).catch(() => []);
  if (built === null) return false;
  for (const entry of entries) {
    if (!entry.isFile() || !/\.(md|markdown)$/i.test(entry.name)) continue;
    const info = await stat(join(entry.parentPath, entry.name));
    if (info.mtimeMs > built.mtimeMs) return true;
  }
  return false;
}
