import type { Chunk, DocumentMeta } from "../types.js";
import { chunkMarkdown } from "./chunk-markdown.js";
import { DEFAULT_CORPUS_OPTIONS, type CorpusSettings } from "./corpus-options.js";
import { invalidCorpusFile } from "./corpus-file-error.js";
import { normalizeFrontmatter } from "./frontmatter.js";
import { normalizeNewlines } from "./normalize-newlines.js";
import { parseFrontmatter } from "./parse-frontmatter.js";
import { describeSplit, splitLongSections } from "./split-long-sections.js";

/** Fatal, so that invalid UTF-8 is refused instead of read as replacement characters; drops a BOM. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Most frontmatter characters a file may carry summed over its sections: every chunk keeps its
 * file's title, keywords, entities and aliases (and both indexes hold them per chunk), so a large
 * frontmatter on a file of many sections multiplies. Far above any real document (1 KB of
 * frontmatter on 16,000 sections), far below what exhausts memory.
 */
export const MAX_REPEATED_FRONTMATTER_CHARS = 16 * 1024 * 1024;

/** Characters of a document's title, domain, keywords, entities, aliases and access: what every chunk of it repeats. */
export function metaChars(meta: DocumentMeta): number {
  const list = (items: readonly string[]) => items.reduce((sum, item) => sum + item.length, 0);
  return (meta.title?.length ?? 0) + (meta.domain?.length ?? 0) + list(meta.keywords) + list(meta.entities) + list(meta.aliases) + list(meta.access ?? []);
}

/** The chunks of one file, and the note to report when its long sections were split (null when none was). */
export interface ParsedMarkdownFile {
  chunks: Chunk[];
  note: string | null;
}

/** The limits {@link parseMarkdownFile} applies: {@link CorpusSettings} fields. */
export type ChunkLimits = Pick<CorpusSettings, "maxChunkBytes" | "maxChunksPerFile">;

/**
 * Turns the bytes of one Markdown file into its chunks: UTF-8 decoding, line breaks normalised,
 * frontmatter parsed as data, then split along headings, and sections over `maxChunkBytes` split
 * again (see {@link splitLongSections}). Pure and linear in the file's size.
 * @throws LookupKnowledgeError `CORPUS_FILE_INVALID` for invalid UTF-8, refused or malformed
 * frontmatter, a field of the wrong type, a file with no text, more chunks than
 * `maxChunksPerFile`, or frontmatter that repeated over the file's sections exceeds
 * {@link MAX_REPEATED_FRONTMATTER_CHARS}.
 */
export function parseMarkdownFile(
  file: string,
  bytes: Uint8Array,
  limits: ChunkLimits = DEFAULT_CORPUS_OPTIONS,
): ParsedMarkdownFile {
  let text: string;
  try {
    text = normalizeNewlines(UTF8.decode(bytes));
  } catch (error) {
    throw invalidCorpusFile("invalid UTF-8: save the file as UTF-8", error);
  }
  if (text.trim().length === 0) throw invalidCorpusFile("no text: the file is empty");
  const { data, body } = parseFrontmatter(text);
  const meta = normalizeFrontmatter(data);
  const split = splitLongSections(chunkMarkdown({ file, body, meta }), limits.maxChunkBytes);
  const { chunks } = split;
  if (chunks.length === 0) throw invalidCorpusFile("no text: the file has frontmatter or headings only");
  if (chunks.length > limits.maxChunksPerFile) {
    throw invalidCorpusFile(
      `too many chunks: ${chunks.length}, more than corpus.maxChunksPerFile (${limits.maxChunksPerFile}); the file is skipped whole, not cut short. Split the file or raise corpus.maxChunksPerFile`,
    );
  }
  const repeated = metaChars(meta) * chunks.length;
  if (repeated > MAX_REPEATED_FRONTMATTER_CHARS) {
    throw invalidCorpusFile(
      `frontmatter too large for its sections: ${metaChars(meta)} characters of title, keywords, entities and aliases are kept with each of ${chunks.length} sections (${repeated} in all, at most ${MAX_REPEATED_FRONTMATTER_CHARS}); shorten the frontmatter or split the file`,
    );
  }
  return { chunks, note: split.splitCount > 0 ? describeSplit(split, limits.maxChunkBytes) : null };
}
