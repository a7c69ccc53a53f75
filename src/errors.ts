/** Codes of every failure lookup-knowledge reports. */
export type LookupKnowledgeErrorCode =
  /** The corpus folder does not exist or is not a folder. */
  | "CORPUS_NOT_FOUND"
  /** A corpus file cannot be indexed; the loader reports it as a skip, never as a failed build. */
  | "CORPUS_FILE_INVALID"
  /** A LangChain document loader, or the iterable of documents, threw: nothing was indexed or synced. */
  | "DOCUMENTS_UNREADABLE"
  /** No saved index in the folder. */
  | "INDEX_NOT_FOUND"
  /** A saved index is damaged or inconsistent; rebuild it. */
  | "INDEX_CORRUPT"
  /** A saved index was built with other term rules or another embedder. */
  | "INDEX_MISMATCH"
  /** An index could not be written (full disk, no permission, a folder that is not an index). */
  | "INDEX_WRITE_FAILED"
  /**
   * Another process holds the index folder's writer lock (`.lookup-knowledge.lock`) and did not
   * release it in time: wait for it, or remove the lock file if that process is gone.
   */
  | "INDEX_LOCKED"
  /** Another writer committed a newer generation since the base of this save was loaded: run the update again. */
  | "INDEX_CHANGED"
  /** No private scratch folder could be made (in the index folder nor in the system's temporary folder). */
  | "SCRATCH_UNAVAILABLE"
  /** The HNSW graph could not be built (its worker thread crashed, ran out of memory or exited). */
  | "INDEX_BUILD_FAILED"
  /** A trace file cannot be written or read (full disk, a path that is not a regular file). */
  | "TRACE_UNAVAILABLE"
  /** The index was built with custom embeddings that were not passed to `load`. */
  | "EMBEDDINGS_REQUIRED"
  /** Embeddings returned something that is not one usable vector per text. */
  | "EMBEDDINGS_INVALID"
  /** Embeddings threw. */
  | "EMBEDDINGS_FAILED"
  /** Embeddings did not answer in time. */
  | "EMBEDDINGS_TIMEOUT"
  /** A command line is wrong: an unknown command or flag, a missing or malformed value (the CLI exits 2). */
  | "USAGE"
  /** An option is out of range or of the wrong type. */
  | "INVALID_OPTION"
  /** The caller's access scope could not be established (the `access` function threw, hung or returned garbage): the lookup is refused, never run unscoped. */
  | "ACCESS_DENIED"
  /** A lookup's input (query, domain, limit) is invalid. */
  | "INVALID_INPUT"
  /** An MCP caller (a bearer token, or the stdio client) has as many calls running and queued as `serve` allows: retry later, or send fewer at once. */
  | "TOO_MANY_CALLS"
  /** A BEIR-format dataset folder cannot be read. */
  | "DATASET_INVALID"
  /** A BEIR-format dataset has nothing to evaluate: no documents, no queries, or no judged query in the split. */
  | "DATASET_EMPTY"
  /** A golden set (YAML) cannot be read, is malformed, or names gold sources the corpus does not have. */
  | "GOLDEN_SET_INVALID"
  /** The vector store that holds L1 threw or answered something unusable. */
  | "VECTOR_STORE_FAILED"
  /** The vector store that holds L1 did not answer in time. */
  | "VECTOR_STORE_TIMEOUT"
  /** The index keeps L1 in a vector store that was not passed to `load`, or another one was. */
  | "VECTOR_STORE_REQUIRED"
  /** An invariant of lookup-knowledge itself failed: a bug. Report it with the message. */
  | "INTERNAL";

/**
 * The one error type of this package. `code` is stable for programs; the message says what is
 * wrong and how to fix it, prefixed with the package name.
 */
export class LookupKnowledgeError extends Error {
  /** Always `"LookupKnowledgeError"`: the name that stack traces and `String(error)` show. */
  override readonly name = "LookupKnowledgeError";
  /** What went wrong, stable across versions: branch on it rather than on the message. */
  readonly code: LookupKnowledgeErrorCode;

  /**
   * @param code - what went wrong
   * @param message - what is wrong and how to fix it; the package name (`lookup-knowledge: `) is prefixed to it
   * @param options - `cause`: the underlying error, kept as `Error.cause`
   */
  constructor(code: LookupKnowledgeErrorCode, message: string, options?: { cause?: unknown }) {
    super(`${PREFIX}${message}`, options);
    this.code = code;
  }
}

const PREFIX = "lookup-knowledge: ";

/** An invariant of this package failed (a bug, not bad input): the error says so and asks for a report. */
export function internalError(detail: string): LookupKnowledgeError {
  return new LookupKnowledgeError(
    "INTERNAL",
    `internal error: ${detail}. This is a bug in lookup-knowledge; please report it with this message.`,
  );
}

/** The message of anything thrown: an `Error`'s message, otherwise its string form. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** {@link errorMessage} without this package's prefix, for quoting one error inside another. */
export function errorDetail(error: unknown): string {
  const message = errorMessage(error);
  return message.startsWith(PREFIX) ? message.slice(PREFIX.length) : message;
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
