import { chunkMarkdown } from "../../src/corpus/chunk-markdown.js";
import { DEFAULT_CORPUS_OPTIONS } from "../../src/corpus/corpus-options.js";
import { splitLongSections } from "../../src/corpus/split-long-sections.js";
import { invalidCorpusFile } from "../../src/corpus/corpus-file-error.js";
import { normalizeFrontmatter } from "../../src/corpus/frontmatter.js";
import { normalizeNewlines } from "../../src/corpus/normalize-newlines.js";
import type { ParsedFrontmatter } from "../../src/corpus/parse-frontmatter.js";
import { MAX_REPEATED_FRONTMATTER_CHARS, metaChars } from "../../src/corpus/parse-markdown-file.js";
import type { Chunk } from "../../src/types.js";

/** A frontmatter path: text (LF, no BOM) to fields and body. */
export type FrontmatterParser = (text: string) => ParsedFrontmatter;

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * `parseMarkdownFile` with its frontmatter step given, so that both paths are timed through the
 * same code (the parse task checks that the gray-matter path gives exactly `parseMarkdownFile`'s
 * chunks): decode, normalise line breaks, frontmatter, fields, chunks (long sections split at the default limit), the repeated-size check.
 */
export function parseFileWith(parse: FrontmatterParser): (file: string, bytes: Uint8Array) => Chunk[] {
  return (file, bytes) => {
    const text = normalizeNewlines(UTF8.decode(bytes));
    if (text.trim().length === 0) throw invalidCorpusFile("no text: the file is empty");
    const { data, body } = parse(text);
    const meta = normalizeFrontmatter(data);
    const { chunks } = splitLongSections(chunkMarkdown({ file, body, meta }), DEFAULT_CORPUS_OPTIONS.maxChunkBytes);
    if (chunks.length === 0) throw invalidCorpusFile("no text: the file has frontmatter or headings only");
    if (metaChars(meta) * chunks.length > MAX_REPEATED_FRONTMATTER_CHARS)
      throw invalidCorpusFile("frontmatter too large for its sections");
    return chunks;
  };
}
