import type { Chunk, DocumentMeta } from "../types.js";
import { chunkMarkdown } from "./chunk-markdown.js";
import { invalidCorpusFile } from "./corpus-file-error.js";
import { normalizeFrontmatter } from "./frontmatter.js";
import { normalizeNewlines } from "./normalize-newlines.js";
import { parseFrontmatter } from "./parse-frontmatter.js";

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

/**
 * Turns the bytes of one Markdown file into its chunks: UTF-8 decoding, line breaks normalised,
 * frontmatter parsed as data, then split along headings. Pure and linear in the file's size.
 * @throws LookupKnowledgeError `CORPUS_FILE_INVALID` for invalid UTF-8, refused or malformed
 * frontmatter, a field of the wrong type, a file with no text, or frontmatter that repeated over
 * the file's sections exceeds {@link MAX_REPEATED_FRONTMATTER_CHARS}.
 */
export function parseMarkdownFile(file: string, bytes: Uint8Array): Chunk[] {
  let text: string;
  try {
    text = normalizeNewlines(UTF8.decode(bytes));
  } catch (error) {
    throw invalidCorpusFile("invalid UTF-8: save the file as UTF-8", error);
  }
  if (text.trim().length === 0) throw invalidCorpusFile("no text: the file is empty");
  const { data, body } = parseFrontmatter(text);
  const meta = normalizeFrontmatter(data);
  const chunks = chunkMarkdown({ file, body, meta });
  if (chunks.length === 0) throw invalidCorpusFile("no text: the file has frontmatter or headings only");
  const repeated = metaChars(meta) * chunks.length;
  if (repeated > MAX_REPEATED_FRONTMATTER_CHARS) {
    throw invalidCorpusFile(
      `frontmatter too large for its sections: ${metaChars(meta)} characters of title, keywords, entities and aliases are kept with each of ${chunks.length} sections (${repeated} in all, at most ${MAX_REPEATED_FRONTMATTER_CHARS}); shorten the frontmatter or split the file`,
    );
  }
  return chunks;
}
