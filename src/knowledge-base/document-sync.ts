import type { IndexedFile, LoadedCorpus } from "../corpus/load-corpus.js";
import { LookupKnowledgeError } from "../errors.js";
import type { IndexParts } from "./index-parts.js";
import { reportCorpus } from "./report-corpus.js";
import { reindexParts, type IndexChanges, type ReindexOptions } from "./update-index.js";
import { resolveDocumentOptions, type DocumentOptions } from "../documents/document-options.js";
import type { DocumentSource } from "../documents/document-source.js";
import { readDocuments } from "../documents/read-documents.js";
import {
  planDocumentSync,
  previousSources,
  type CleanupMode,
  type SyncResult,
} from "../documents/sync-documents-plan.js";

/** Options of `kb.syncDocuments`: how documents become chunks, how the new ones are embedded, and the cleanup. */
export interface SyncDocumentsOptions extends DocumentOptions, ReindexOptions {
  /**
   * Indexed sources the sync was not given: `incremental` keeps them (a sync of a few sources
   * changes only those), `full` removes them (the documents given are the whole knowledge base).
   * Either way, a source that was given is replaced by exactly the documents given for it.
   * @default "incremental"
   */
  cleanup?: CleanupMode;
}

/** True when `parts` were built from LangChain documents (every indexed source records its documents). */
export function isDocumentIndex(parts: { readonly files: readonly IndexedFile[] | null }): boolean {
  return parts.files !== null && parts.files.length > 0 && parts.files.every((file) => file.documents !== undefined);
}

/**
 * Reads `source` into the corpus a build indexes: every usable document chunked, the others in
 * `skipped`, each skip also passed to `onWarning`.
 */
export async function corpusOfDocuments(
  source: DocumentSource,
  options: DocumentOptions & Pick<ReindexOptions, "onWarning">,
): Promise<LoadedCorpus> {
  const settings = resolveDocumentOptions(options);
  const { corpus } = await planDocumentSync(await readDocuments(source, settings), new Map(), "full", settings);
  reportCorpus(corpus, options.onWarning);
  return corpus;
}

/**
 * Syncs `parts` (built from documents) with `source`: see {@link planDocumentSync} for what is
 * kept, replaced and removed, then {@link reindexParts} for what that costs (only new chunks are
 * tokenized and embedded).
 * @throws LookupKnowledgeError `INVALID_OPTION` when `parts` were built from a corpus folder or
 * ready-made chunks, or for a bad option; `DOCUMENTS_UNREADABLE` when the loader throws; the
 * embedding errors of an update. Nothing is changed when it throws.
 */
export async function syncDocumentParts(
  parts: IndexParts,
  source: DocumentSource,
  options: SyncDocumentsOptions = {},
): Promise<{ parts: IndexParts; changes: IndexChanges; result: SyncResult }> {
  if (!isDocumentIndex(parts)) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      parts.files === null
        ? "this knowledge base was built from ready-made chunks, so it cannot be synced with documents; build it with KnowledgeBase.fromDocuments."
        : "this knowledge base was built from a corpus folder; update it with kb.update({ corpusDir }), or build one with KnowledgeBase.fromDocuments to sync documents.",
    );
  }
  const cleanup = options.cleanup ?? "incremental";
  if (cleanup !== "incremental" && cleanup !== "full") {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `cleanup must be "incremental" or "full", got ${JSON.stringify(cleanup)}.`,
    );
  }
  const settings = resolveDocumentOptions(options);
  options.onProgress?.({ phase: "load", done: 0, total: 1 });
  const read = await readDocuments(source, settings);
  const previous = previousSources(parts.files!, parts.chunks);
  const { corpus, result } = await planDocumentSync(read, previous, cleanup, settings);
  reportCorpus(corpus, options.onWarning);
  const updated = await reindexParts(parts, corpus, new Set(previous.keys()), options, null);
  return { ...updated, result };
}
