import type { CleanupMode } from "../documents/sync-documents-plan.js";
import { usageError, type ParsedCommand } from "./command-spec.js";

/** The `index` flags of a `--documents` run, checked. */
export interface DocumentsFlags {
  /** The JSONL file, or `-` for stdin. */
  documents: string;
  cleanup: CleanupMode;
  sourceIdKey: string;
}

/**
 * The `--documents` flags of `index`, with their defaults (`--cleanup incremental`,
 * `--source-id-key source`); null for a run over a corpus folder.
 * @throws LookupKnowledgeError `USAGE` for `--documents` with `--corpus` or `--watch`, a
 * `--cleanup` other than incremental or full, or `--cleanup` / `--source-id-key` without `--documents`.
 */
export function documentsFlags({ values }: ParsedCommand): DocumentsFlags | null {
  const { documents, cleanup, "source-id-key": sourceIdKey } = values;
  if (typeof documents !== "string") {
    const stray = cleanup !== undefined ? "--cleanup" : sourceIdKey !== undefined ? "--source-id-key" : null;
    if (stray !== null) throw usageError("index", `${stray} applies to --documents only; add --documents FILE.`);
    return null;
  }
  if (values.corpus !== undefined)
    throw usageError("index", "--documents and --corpus are two sources; give one of them.");
  if (values.watch === true)
    throw usageError("index", "--watch follows a corpus folder, not --documents; run index --documents again instead.");
  if (cleanup !== undefined && cleanup !== "incremental" && cleanup !== "full")
    throw usageError("index", `--cleanup must be incremental or full, got ${JSON.stringify(cleanup)}.`);
  return {
    documents,
    cleanup: cleanup ?? "incremental",
    sourceIdKey: typeof sourceIdKey === "string" ? sourceIdKey : "source",
  };
}
