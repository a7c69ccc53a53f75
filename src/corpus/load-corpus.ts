import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import matter from "gray-matter";
import { LookupKnowledgeError } from "../errors.js";
import type { Chunk, SkippedFile } from "../types.js";
import { chunkMarkdown } from "./chunk-markdown.js";
import { normalizeFrontmatter } from "./frontmatter.js";

/** What {@link loadCorpus} read: the chunks of every usable file and the files it skipped. */
export interface LoadedCorpus {
  chunks: Chunk[];
  skipped: SkippedFile[];
  /** Number of Markdown files found, indexed or not. */
  fileCount: number;
}

const MARKDOWN = /\.(md|markdown)$/i;
const utf8 = new TextDecoder("utf-8", { fatal: true });

async function listMarkdownFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && MARKDOWN.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

function parseFile(file: string, bytes: Uint8Array): Chunk[] | string {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return "invalid UTF-8: save the file as UTF-8";
  }
  let parsed: { data: Record<string, unknown>; content: string };
  try {
    // An options object turns off gray-matter's per-string cache, which would share `data` objects.
    parsed = matter(text, {});
  } catch (error) {
    const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return `malformed frontmatter: ${detail}`;
  }
  let chunks: Chunk[];
  try {
    chunks = chunkMarkdown({ file, body: parsed.content, meta: normalizeFrontmatter(parsed.data) });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return chunks.length > 0 ? chunks : "no text: the file has frontmatter or headings only";
}

/**
 * Reads every Markdown file below `corpusDir` (sorted, recursively) and chunks it. A file with
 * malformed frontmatter, invalid UTF-8 or no text is skipped and listed in `skipped`; the rest
 * are indexed.
 * @throws LookupKnowledgeError `CORPUS_NOT_FOUND` when the folder does not exist.
 */
export async function loadCorpus(corpusDir: string): Promise<LoadedCorpus> {
  const info = await stat(corpusDir).catch(() => null);
  if (!info?.isDirectory()) {
    throw new LookupKnowledgeError(
      "CORPUS_NOT_FOUND",
      `corpus folder "${corpusDir}" does not exist or is not a folder. Pass --corpus DIR (or corpusDir) pointing at your Markdown files.`,
    );
  }
  const files = await listMarkdownFiles(corpusDir);
  const chunks: Chunk[] = [];
  const skipped: SkippedFile[] = [];
  for (const path of files) {
    const file = relative(corpusDir, path).split(sep).join("/");
    const result = parseFile(file, await readFile(path));
    if (typeof result === "string") skipped.push({ file, reason: result });
    else chunks.push(...result);
  }
  return { chunks, skipped, fileCount: files.length };
}
