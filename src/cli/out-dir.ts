import { statSync } from "node:fs";
import { usageError } from "./command-spec.js";

/**
 * Checks `--out` before an eval runs: an existing non-folder would only fail after the whole
 * run, when the results are written.
 * @throws LookupKnowledgeError `USAGE` (exit 2) when `out` exists and is not a folder.
 */
export function checkOutDir(command: string, out: string): void {
  let isFolder: boolean;
  try {
    isFolder = statSync(out).isDirectory();
  } catch {
    return; // Missing: it is created. Unreadable: the write names the reason.
  }
  if (!isFolder)
    throw usageError(
      command,
      `--out ${out} is not a folder; pass a folder for the results (it is created when missing).`,
    );
}
