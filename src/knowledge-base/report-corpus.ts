import type { LoadedCorpus } from "../corpus/load-corpus.js";

/**
 * Passes what a load has to say to `onWarning`: one line per skipped file (`skipped <file>:
 * <reason>`), then one per file whose long sections were split (`<file>: <note>`).
 */
export function reportCorpus(
  corpus: Pick<LoadedCorpus, "skipped" | "notes">,
  onWarning: ((message: string) => void) | undefined,
): void {
  const warn = onWarning ?? (() => {});
  for (const { file, reason } of corpus.skipped) warn(`lookup-knowledge: skipped ${file}: ${reason}`);
  for (const { file, note } of corpus.notes) warn(`lookup-knowledge: ${file}: ${note}`);
}
