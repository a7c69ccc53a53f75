import type { DocumentInterface } from "@langchain/core/documents";
import { LookupKnowledgeError } from "../errors.js";

/** Anything with LangChain's document loader method: `DirectoryLoader`, `PDFLoader`, `CheerioWebBaseLoader`, ... */
export interface DocumentLoaderLike {
  /** Every document the loader produces; awaited once per build or sync. */
  load(): Promise<DocumentInterface[]>;
}

/** What `fromDocuments` and `syncDocuments` read: a list, an (async) iterable, or a loader. */
export type DocumentSource = Iterable<DocumentInterface> | AsyncIterable<DocumentInterface> | DocumentLoaderLike;

function isIterable(value: object): value is Iterable<unknown> {
  return typeof (value as Partial<Iterable<unknown>>)[Symbol.iterator] === "function";
}

function isAsyncIterable(value: object): value is AsyncIterable<unknown> {
  return typeof (value as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === "function";
}

function isLoader(value: object): value is DocumentLoaderLike {
  return typeof (value as Partial<DocumentLoaderLike>).load === "function";
}

/**
 * The documents of `source`, one at a time, as given (each is checked later). A loader's `load()`
 * is awaited once; a loader that throws fails the whole read, before anything is indexed.
 * @throws LookupKnowledgeError `INVALID_OPTION` when `source` is none of the accepted kinds;
 * `DOCUMENTS_UNREADABLE` when the loader or the iterable throws.
 */
export async function* documentsOf(source: DocumentSource): AsyncGenerator<unknown> {
  if (typeof source !== "object" || source === null || typeof source === "string") {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      "documents must be a list of LangChain documents, an (async) iterable of them, or a document loader (an object with load()).",
    );
  }
  let items: Iterable<unknown> | AsyncIterable<unknown>;
  try {
    items = isAsyncIterable(source) || isIterable(source) ? source : isLoader(source) ? await source.load() : null!;
  } catch (error) {
    throw new LookupKnowledgeError("DOCUMENTS_UNREADABLE", "the document loader failed; nothing was indexed", {
      cause: error,
    });
  }
  if (items === null || typeof items !== "object" || (!isIterable(items) && !isAsyncIterable(items))) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      "documents must be a list of LangChain documents, an (async) iterable of them, or a document loader whose load() returns a list.",
    );
  }
  try {
    for await (const item of items) yield item;
  } catch (error) {
    if (error instanceof LookupKnowledgeError) throw error;
    throw new LookupKnowledgeError(
      "DOCUMENTS_UNREADABLE",
      "reading the documents failed part-way; nothing was indexed",
      { cause: error },
    );
  }
}
