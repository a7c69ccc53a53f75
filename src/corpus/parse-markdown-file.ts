import type { Chunk } from "../types.js";
import { chunkMarkdown } from "./chunk-markdown.js";
import { invalidCorpusFile } from "./corpus-file-error.js";
import { normalizeFrontmatter } from "./frontmatter.js";
import { normalizeNewlines } from "./normalize-newlines.js";
import { parseFrontmatter } from "./parse-frontmatter.js";

/** Fatal, so that invalid UTF-8 is refused instead of read as replacement characters; drops a BOM. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Turns the bytes of one Markdown file into its chunks: UTF-8 decoding, line breaks normalised,
 * frontmatter parsed as data, then split along headings. Pure and linear in the file's size.
 * @throws LookupKnowledgeError `CORPUS_FILE_INVALID` for invalid UTF-8, refused or malformed
 * frontmatter, a field of the wrong type, or a file with no text.
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
  const chunks = chunkMarkdown({ file, body, meta: normalizeFrontmatter(data) });
  if (chunks.length === 0) throw invalidCorpusFile("no text: the file has frontmatter or headings only");
  return chunks;
}
