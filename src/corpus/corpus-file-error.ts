import { errorDetail, LookupKnowledgeError } from "../errors.js";

/** Longest skip reason kept: reasons may quote the file (a tag, a language name), which may be huge. */
export const MAX_SKIP_REASON_LENGTH = 300;

/** The error every corpus step throws for a file it cannot index; the loader turns it into a skip. */
export function invalidCorpusFile(reason: string, cause?: unknown): LookupKnowledgeError {
  return new LookupKnowledgeError("CORPUS_FILE_INVALID", reason, cause === undefined ? undefined : { cause });
}

/** The reason a file is skipped for, from anything one of its steps threw: one line, bounded. */
export function skipReasonOf(error: unknown): string {
  const line = errorDetail(error).split("\n", 1)[0];
  if (line.length <= MAX_SKIP_REASON_LENGTH) return line;
  let end = MAX_SKIP_REASON_LENGTH - 1;
  const last = line.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // never cut a surrogate pair in half
  return `${line.slice(0, end)}…`;
}
