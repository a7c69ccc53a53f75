/** Codes of every failure lookup-knowledge reports. */
export type LookupKnowledgeErrorCode =
  | "CORPUS_NOT_FOUND"
  | "INDEX_NOT_FOUND"
  | "INDEX_CORRUPT"
  | "INDEX_MISMATCH"
  | "EMBEDDINGS_REQUIRED"
  | "INVALID_OPTION"
  | "DATASET_INVALID";

/**
 * The one error type of this package. `code` is stable for programs; the message says what is
 * wrong and how to fix it, prefixed with the package name.
 */
export class LookupKnowledgeError extends Error {
  override readonly name = "LookupKnowledgeError";
  readonly code: LookupKnowledgeErrorCode;

  constructor(code: LookupKnowledgeErrorCode, message: string, options?: { cause?: unknown }) {
    super(`lookup-knowledge: ${message}`, options);
    this.code = code;
  }
}

/** Builds the error for a saved index that is absent or unreadable; always says how to rebuild it. */
export function indexUnusable(dir: string, detail: string, cause?: unknown): LookupKnowledgeError {
  const code = detail.startsWith("missing") ? "INDEX_NOT_FOUND" : "INDEX_CORRUPT";
  return new LookupKnowledgeError(
    code,
    `the saved index in "${dir}" cannot be used (${detail}). Run \`lookup-knowledge index --out ${dir}\` to build it again.`,
    { cause },
  );
}
