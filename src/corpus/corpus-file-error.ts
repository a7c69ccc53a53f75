import { errorDetail, LookupKnowledgeError } from "../errors.js";
import { capText } from "../text/cap-text.js";

/** Longest skip reason kept: reasons may quote the file (a tag, a language name), which may be huge. */
export const MAX_SKIP_REASON_LENGTH = 300;

/** The error every corpus step throws for a file it cannot index; the loader turns it into a skip. */
export function invalidCorpusFile(reason: string, cause?: unknown): LookupKnowledgeError {
  return new LookupKnowledgeError("CORPUS_FILE_INVALID", reason, cause === undefined ? undefined : { cause });
}

/** The reason a file is skipped for, from anything one of its steps threw: one line, bounded. */
export function skipReasonOf(error: unknown): string {
  return capText(errorDetail(error).split("\n", 1)[0], MAX_SKIP_REASON_LENGTH);
}
