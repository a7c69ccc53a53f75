import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SourceDocument } from "./replicate-corpus.js";

/** One Markdown file of the incremental benchmark: its relative path and its text. */
export interface MarkdownFile {
  path: string;
  text: string;
}

/** A heading line cannot hold a line break; SciFact titles have none, but be safe. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Groups documents into Markdown files of `perFile` sections each: YAML frontmatter with a
 * `title:` (JSON-quoted, which YAML reads as a double-quoted scalar), then one `## <doc title>`
 * section per document holding its text, so that chunking by heading gives one chunk per
 * document and no preamble chunk. Pure.
 */
export function toMarkdownFiles(docs: readonly SourceDocument[], perFile: number): MarkdownFile[] {
  const files: MarkdownFile[] = [];
  const digits = String(Math.max(0, Math.ceil(docs.length / perFile) - 1)).length;
  for (let start = 0, n = 0; start < docs.length; start += perFile, n++) {
    const group = docs.slice(start, start + perFile);
    const sections = group.map((doc) => `## ${oneLine(doc.title) || doc.id}\n\n${doc.text.trim()}\n`);
    const text = `---\ntitle: ${JSON.stringify(`SciFact batch ${n}`)}\n---\n\n${sections.join("\n")}`;
    files.push({ path: `batch-${String(n).padStart(digits, "0")}.md`, text });
  }
  return files;
}

/** Writes the files below `dir` (created when missing). */
export async function writeMarkdownFiles(dir: string, files: readonly MarkdownFile[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const file of files) await writeFile(join(dir, file.path), file.text, "utf8");
}

/**
 * The same file with one word of one section changed: the first word of section `section`'s text
 * becomes `word`. Pure; the heading and every other section stay as they were.
 * @throws RangeError when the file has no such section.
 */
export function editOneSection(text: string, section: number, word: string): string {
  const parts = text.split(/(?=^## )/m);
  const index = section + 1; // parts[0] is the frontmatter
  const target = parts[index];
  if (target === undefined) throw new RangeError(`the file has no section ${section}`);
  const [heading, ...rest] = target.split("\n");
  const body = rest.join("\n").replace(/\S+/, word);
  parts[index] = [heading, body].join("\n");
  return parts.join("");
}
