/** `files.json`: the corpus files an index was built from, with their content hashes. */
import type { DocumentRecord, IndexedFile } from "../corpus/load-corpus.js";
import type { Chunk } from "../types.js";

/**
 * The persisted list; `files` is in chunk order. Version 1 lists corpus files; version 2 lists
 * the sources of an index built from LangChain documents, each with its documents' records.
 */
export interface FilesFile {
  version: 1 | 2;
  files: IndexedFile[];
}

const SHA256 = /^[0-9a-f]{64}$/;

/** The JSON text of `files.json`. */
export function serializeFiles(files: readonly IndexedFile[]): string {
  const data: FilesFile = { version: files.some((file) => file.documents !== undefined) ? 2 : 1, files: [...files] };
  return JSON.stringify(data);
}

/** True when `documents` are well-formed records whose chunk counts add up to `chunkCount`. */
function documentsCover(documents: unknown, chunkCount: unknown): boolean {
  if (!Array.isArray(documents) || documents.length === 0) return false;
  let total = 0;
  const keys = new Set<string>();
  for (const entry of documents as unknown[]) {
    const { key, sha256, chunkCount: count } = (entry ?? {}) as Partial<DocumentRecord>;
    if (typeof key !== "string" || keys.has(key) || typeof sha256 !== "string" || !SHA256.test(sha256)) return false;
    if (!Number.isSafeInteger(count) || (count as number) < 1) return false;
    keys.add(key);
    total += count as number;
  }
  return total === chunkCount;
}

/**
 * Checks a parsed `files.json` against the chunks it describes: every record well formed, and
 * the files' chunk counts covering the chunk list in order. Returns the records, or a problem.
 */
export function checkFiles(parsed: unknown, chunks: readonly Chunk[]): IndexedFile[] | string {
  const data = parsed as Partial<FilesFile> | null;
  if (
    typeof data !== "object" ||
    data === null ||
    (data.version !== 1 && data.version !== 2) ||
    !Array.isArray(data.files)
  )
    return "is not a version 1 or 2 file list";
  let at = 0;
  for (const [i, record] of data.files.entries()) {
    const { file, sha256, chunkCount, stamp, documents } = (record ?? {}) as Partial<IndexedFile>;
    if (
      (data.version === 2) !== (documents !== undefined) ||
      (documents !== undefined && !documentsCover(documents, chunkCount)) ||
      (stamp !== undefined && typeof stamp !== "string") ||
      typeof file !== "string" ||
      typeof sha256 !== "string" ||
      !SHA256.test(sha256) ||
      !Number.isSafeInteger(chunkCount) ||
      (chunkCount as number) < 1
    ) {
      return `has a malformed record ${i + 1}`;
    }
    for (let c = 0; c < (chunkCount as number); c++, at++) {
      if (chunks[at]?.file !== file) return `does not match the chunks (record ${i + 1}, "${file}")`;
    }
  }
  if (at !== chunks.length) return `covers ${at} of ${chunks.length} chunks`;
  return data.files;
}
