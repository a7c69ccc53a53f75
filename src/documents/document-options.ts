import type { DocumentInterface } from "@langchain/core/documents";
import { DEFAULT_CORPUS_OPTIONS, MIN_CHUNK_BYTES } from "../corpus/corpus-options.js";
import { LookupKnowledgeError } from "../errors.js";

/** The fields of a chunk's {@link DocumentMeta} that a LangChain document's metadata can fill. */
export type MetadataField = "title" | "domain" | "keywords" | "entities" | "aliases" | "access";

/**
 * Which metadata keys fill each field, tried in order (the first key present wins). Passing a
 * field replaces its default list; the other fields keep theirs.
 */
export type MetadataMapping = Partial<Record<MetadataField, readonly string[]>>;

/** Anything with LangChain's text splitter method (`RecursiveCharacterTextSplitter`, `MarkdownTextSplitter`, ...). */
export interface TextSplitterLike {
  /** The chunks of `text`, in order; blank ones are dropped. */
  splitText(text: string): Promise<string[]>;
}

/** How LangChain documents become chunks: `KnowledgeBase.fromDocuments` and `syncDocuments`. */
export interface DocumentOptions {
  /**
   * The metadata key holding a document's source identity (a loader's file path, a URL), or a
   * function of the document returning it: documents with the same source id are one source,
   * replaced together by a sync. A document without one is skipped with a reason.
   * @default "source"
   */
  sourceIdKey?: string | ((document: DocumentInterface) => unknown);
  /**
   * Metadata keys read for each field.
   * @default { title: ["title"], domain: ["domain", "category"], keywords: ["keywords", "tags"], entities: ["entities"], aliases: ["aliases"], access: ["access"] }
   */
  metadataFields?: MetadataMapping;
  /**
   * How page content is split: `"markdown"` reads frontmatter and splits by headings, as corpus
   * files are; `"text"` splits by paragraphs up to `maxChunkChars`; `"auto"` picks Markdown for
   * sources ending in `.md`, `.markdown` or `.mdx`, text otherwise.
   * @default "auto"
   */
  contentFormat?: "auto" | "markdown" | "text";
  /** Any LangChain text splitter, used for every document instead of `contentFormat`'s split. @default none */
  splitter?: TextSplitterLike;
  /** Longest chunk the paragraph split makes, in characters; longer paragraphs are cut at line, then word, breaks. @default 2000 */
  maxChunkChars?: number;
  /** Longest page content read, in characters; a longer document is skipped with a reason. @default 67108864 */
  maxDocumentChars?: number;
  /**
   * Largest chunk text, in bytes of UTF-8, whatever made the chunk (a Markdown section, the
   * paragraph split, `splitter`): a longer one is split at paragraph, line and word breaks, else
   * at a character boundary, and reported through `onWarning` naming this limit. The default is
   * `corpus.maxChunkBytes`'s (see `CorpusOptions`).
   * @default 65536 (64 KiB)
   */
  maxChunkBytes?: number;
}

/** {@link DocumentOptions} with every default applied. */
export interface DocumentSettings {
  sourceIdOf: (document: DocumentInterface) => unknown;
  /** The key sources are read from, for messages and the saved index; null for a function. */
  sourceIdKey: string | null;
  metadataFields: Readonly<Record<MetadataField, readonly string[]>>;
  contentFormat: "auto" | "markdown" | "text";
  splitter: TextSplitterLike | null;
  maxChunkChars: number;
  maxDocumentChars: number;
  maxChunkBytes: number;
}

/** The documented defaults of {@link DocumentOptions}. */
export const DEFAULT_DOCUMENT_OPTIONS = {
  sourceIdKey: "source",
  metadataFields: {
    title: ["title"],
    domain: ["domain", "category"],
    keywords: ["keywords", "tags"],
    entities: ["entities"],
    aliases: ["aliases"],
    access: ["access"],
  },
  contentFormat: "auto",
  maxChunkChars: 2000,
  maxDocumentChars: 64 * 1024 * 1024,
  maxChunkBytes: DEFAULT_CORPUS_OPTIONS.maxChunkBytes,
} as const;

function invalid(message: string): LookupKnowledgeError {
  return new LookupKnowledgeError("INVALID_OPTION", message);
}

function positive(name: string, value: unknown, fallback: number, min = 1): number {
  const number = value ?? fallback;
  if (typeof number !== "number" || !Number.isSafeInteger(number) || number < min) {
    throw invalid(
      `${name} must be ${min === 1 ? "a positive whole number" : `a whole number from ${min}`}, got ${String(value)}.`,
    );
  }
  return number;
}

function mappingOf(given: unknown): Record<MetadataField, readonly string[]> {
  const fields: Record<MetadataField, readonly string[]> = { ...DEFAULT_DOCUMENT_OPTIONS.metadataFields };
  if (given === undefined) return fields;
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    throw invalid('metadataFields must be an object of metadata key lists, e.g. { keywords: ["labels"] }.');
  }
  for (const [field, keys] of Object.entries(given)) {
    if (!Object.hasOwn(fields, field)) {
      throw invalid(`metadataFields.${field} is not a field; use ${Object.keys(fields).join(", ")}.`);
    }
    if (!Array.isArray(keys) || !keys.every((key) => typeof key === "string" && key.length > 0)) {
      throw invalid(`metadataFields.${field} must be a list of metadata keys, e.g. ["labels"].`);
    }
    fields[field as MetadataField] = [...(keys as string[])];
  }
  return fields;
}

/**
 * Applies the defaults of {@link DocumentOptions} and checks the values.
 * @throws LookupKnowledgeError `INVALID_OPTION` naming the option and what it takes.
 */
export function resolveDocumentOptions(options: DocumentOptions = {}): DocumentSettings {
  const key = options.sourceIdKey ?? DEFAULT_DOCUMENT_OPTIONS.sourceIdKey;
  if (typeof key !== "function" && (typeof key !== "string" || key.length === 0)) {
    throw invalid("sourceIdKey must be a metadata key (a non-empty string) or a function of the document.");
  }
  const contentFormat = options.contentFormat ?? DEFAULT_DOCUMENT_OPTIONS.contentFormat;
  if (!["auto", "markdown", "text"].includes(contentFormat)) {
    throw invalid(`contentFormat must be "auto", "markdown" or "text", got ${JSON.stringify(contentFormat)}.`);
  }
  const splitter = options.splitter ?? null;
  if (splitter !== null && typeof (splitter as Partial<TextSplitterLike>).splitText !== "function") {
    throw invalid("splitter must be a LangChain text splitter (an object with splitText(text)).");
  }
  return {
    sourceIdOf:
      typeof key === "function" ? key : (document) => (document.metadata as Record<string, unknown> | undefined)?.[key],
    sourceIdKey: typeof key === "function" ? null : key,
    metadataFields: mappingOf(options.metadataFields),
    contentFormat,
    splitter,
    maxChunkChars: positive("maxChunkChars", options.maxChunkChars, DEFAULT_DOCUMENT_OPTIONS.maxChunkChars),
    maxDocumentChars: positive("maxDocumentChars", options.maxDocumentChars, DEFAULT_DOCUMENT_OPTIONS.maxDocumentChars),
    maxChunkBytes: positive(
      "maxChunkBytes",
      options.maxChunkBytes,
      DEFAULT_DOCUMENT_OPTIONS.maxChunkBytes,
      MIN_CHUNK_BYTES,
    ),
  };
}
