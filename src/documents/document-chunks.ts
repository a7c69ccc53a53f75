import { chunkMarkdown } from "../corpus/chunk-markdown.js";
import { invalidCorpusFile } from "../corpus/corpus-file-error.js";
import { normalizeNewlines } from "../corpus/normalize-newlines.js";
import { parseFrontmatter } from "../corpus/parse-frontmatter.js";
import { MAX_REPEATED_FRONTMATTER_CHARS, metaChars } from "../corpus/parse-markdown-file.js";
import { describeSplit, splitLongSections } from "../corpus/split-long-sections.js";
import { splitLongText } from "../corpus/split-long-text.js";
import type { Chunk, DocumentMeta } from "../types.js";
import { metaOfMetadata } from "./document-meta.js";
import type { DocumentSettings } from "./document-options.js";
import { splitParagraphs } from "./split-paragraphs.js";

/** One LangChain document as the sync reads it: checked content and metadata, and its place in its source. */
export interface SourceDocument {
  /** The source id (the `sourceIdKey` value): every chunk's `file`. */
  sourceId: string;
  /**
   * The document within its source, unique there: `page-3`, `line-12`, `lines-4-9`, `part-2`;
   * null for the only document of a source that gave no location. Part of every chunk's `source`.
   */
  key: string | null;
  /** The location a reader cites (`page 3`, `line 12`), the last step of each chunk's breadcrumb; null when the loader gave none. */
  label: string | null;
  content: string;
  metadata: Readonly<Record<string, unknown>>;
}

const MARKDOWN_SOURCE = /\.(md|markdown|mdx)$/i;

/** True when `document`'s content is read as Markdown under `settings.contentFormat`. */
export function isMarkdown(
  document: Pick<SourceDocument, "sourceId">,
  settings: Pick<DocumentSettings, "contentFormat">,
): boolean {
  return (
    settings.contentFormat === "markdown" ||
    (settings.contentFormat === "auto" && MARKDOWN_SOURCE.test(document.sourceId))
  );
}

/** The parts of `body` as the paragraph split or `settings.splitter` makes them, each then held to `maxChunkBytes`. */
async function splitText(
  body: string,
  settings: DocumentSettings,
  split: { splitCount: number; partCount: number },
): Promise<string[]> {
  const parts: string[] = [];
  for (const part of await splitterParts(body, settings)) {
    const pieces = splitLongText(part, settings.maxChunkBytes);
    if (pieces.length > 1) {
      split.splitCount++;
      split.partCount += pieces.length;
    }
    for (const piece of pieces) parts.push(piece);
  }
  return parts;
}

async function splitterParts(body: string, settings: DocumentSettings): Promise<string[]> {
  if (settings.splitter === null) return splitParagraphs(body, settings.maxChunkChars);
  let parts: unknown;
  try {
    parts = await settings.splitter.splitText(body);
  } catch (error) {
    throw invalidCorpusFile("the text splitter failed on this document", error);
  }
  if (!Array.isArray(parts) || !parts.every((part) => typeof part === "string")) {
    throw invalidCorpusFile("the text splitter did not return a list of strings");
  }
  return parts.map((part) => part.trim()).filter((part) => part.length > 0);
}

function checkRepeatedMeta(meta: DocumentMeta, count: number): void {
  const repeated = metaChars(meta) * count;
  if (repeated > MAX_REPEATED_FRONTMATTER_CHARS) {
    throw invalidCorpusFile(
      `metadata too large for its chunks: ${metaChars(meta)} characters of title, keywords, entities and aliases are kept with each of ${count} chunks (${repeated} in all, at most ${MAX_REPEATED_FRONTMATTER_CHARS}); shorten them or split the document`,
    );
  }
}

/**
 * Chunks one document: Markdown (see {@link isMarkdown}) has its frontmatter read and is split by
 * headings as a corpus file is, its metadata fields winning over its frontmatter's; other text is
 * split by paragraphs up to `maxChunkChars`, or by `settings.splitter` when given. Chunk sources
 * are `<source id>#<key>/<heading slug>` for Markdown and `<source id>#<key>`, then `/2`, `/3`, ...
 * for text (the key left out, or `text`, for a source's only document without a location). Any
 * chunk over `maxChunkBytes` is split further (paragraph, line, word, character), the Markdown
 * sections' parts as `<slug>/2`, `<slug>/3`, ...; `onNote` then gets one line naming the limit.
 * @throws LookupKnowledgeError `CORPUS_FILE_INVALID` for refused frontmatter, a wrong or oversized
 * metadata field, a failing splitter, or a document with no text.
 */
export async function chunksOfDocument(
  document: SourceDocument,
  settings: DocumentSettings,
  onNote: (note: string) => void = () => {},
): Promise<Chunk[]> {
  const text = normalizeNewlines(document.content);
  if (text.trim().length === 0) throw invalidCorpusFile("no text: the page content is empty");
  const { sourceId, key, label } = document;
  const tail = label !== null ? [label] : [];
  let chunks: Chunk[];
  const split = { splitCount: 0, partCount: 0 };
  if (isMarkdown(document, settings)) {
    const { data, body } = parseFrontmatter(text);
    const meta = metaOfMetadata(document.metadata, settings.metadataFields, data);
    const sections =
      settings.splitter === null
        ? chunkMarkdown({ file: sourceId, body, meta })
        : (await splitterParts(body, settings)).map((content, i): Chunk => ({
            source: `${sourceId}#${i === 0 ? "top" : `part-${i + 1}`}`,
            file: sourceId,
            ...(meta.title !== undefined ? { title: meta.title } : {}),
            breadcrumb: meta.title !== undefined ? [meta.title] : [],
            content,
            meta,
          }));
    const limited = splitLongSections(sections, settings.maxChunkBytes);
    split.splitCount = limited.splitCount;
    split.partCount = limited.partCount;
    chunks = limited.chunks.map((chunk) => ({
      ...chunk,
      source: key === null ? chunk.source : `${sourceId}#${key}/${chunk.source.slice(sourceId.length + 1)}`,
      breadcrumb: [...chunk.breadcrumb, ...tail],
    }));
  } else {
    const meta = metaOfMetadata(document.metadata, settings.metadataFields);
    const base = `${sourceId}#${key ?? "text"}`;
    chunks = (await splitText(text, settings, split)).map((content, i) => ({
      source: i === 0 ? base : `${base}/${i + 1}`,
      file: sourceId,
      ...(meta.title !== undefined ? { title: meta.title } : {}),
      breadcrumb: [...(meta.title !== undefined ? [meta.title] : []), ...tail],
      content,
      meta,
    }));
  }
  if (chunks.length === 0) throw invalidCorpusFile("no text: the document has frontmatter or headings only");
  checkRepeatedMeta(chunks[0].meta, chunks.length);
  if (split.splitCount > 0) onNote(describeSplit(split, settings.maxChunkBytes, "maxChunkBytes"));
  return chunks;
}
