import { LookupKnowledgeError, type LookupKnowledgeErrorCode } from "../errors.js";

/** Where `index` met the error: loading the saved index, or updating the loaded one. */
export type IndexStage = "load" | "update";

/** Codes that say the saved index itself cannot be updated, so that a rebuild is the way on. */
const REBUILD_CODES: Record<IndexStage, readonly LookupKnowledgeErrorCode[]> = {
  // Damaged, another format or term rules, or custom embeddings the CLI cannot pass.
  load: ["INDEX_NOT_FOUND", "INDEX_CORRUPT", "INDEX_MISMATCH", "EMBEDDINGS_REQUIRED"],
  // Not built from a corpus folder, or data found damaged when the update read it all.
  update: ["INVALID_OPTION", "INDEX_CORRUPT"],
};

/** Errors of the machine, not of the index: a rebuild would fail the same way or throw a good index away. */
const ENVIRONMENT_ERRNOS = new Set([
  "EACCES",
  "EPERM",
  "ENOSPC",
  "EDQUOT",
  "EMFILE",
  "ENFILE",
  "EIO",
  "ENOMEM",
  "EROFS",
  "EBUSY",
  "EAGAIN",
  "ETIMEDOUT",
]);

/** The first errno code (`EACCES`...) of an environment failure in `error`'s cause chain; null when there is none. */
export function environmentErrno(error: unknown): string | null {
  for (
    let cause = error, depth = 0;
    cause !== null && typeof cause === "object" && depth < 10;
    cause = (cause as { cause?: unknown }).cause, depth++
  ) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && ENVIRONMENT_ERRNOS.has(code)) return code;
  }
  return null;
}

/**
 * True when `index` should rebuild the index after `error` rather than report it: only for a
 * saved index that cannot be updated (damaged, of another format, not built from a folder), and
 * never for a failure of the environment (no permission, a full disk, too many open files, no
 * scratch folder, another writer's lock), whose index may be perfectly good.
 */
export function shouldRebuild(error: unknown, stage: IndexStage): error is LookupKnowledgeError {
  if (!(error instanceof LookupKnowledgeError) || !REBUILD_CODES[stage].includes(error.code)) return false;
  return environmentErrno(error.cause) === null;
}
