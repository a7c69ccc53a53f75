import type { Chunk, DocumentMeta } from "../types.js";
import { fenceMarker, parseHeading, type FenceMarker } from "./markdown-line.js";
import { normalizeNewlines } from "./normalize-newlines.js";
import { createSlugger } from "./slug.js";

/** Slug of the text that stands before the first heading of a file. */
export const PREAMBLE_SLUG = "top";

/** Input of {@link chunkMarkdown}: one parsed file. */
export interface MarkdownDocument {
  /** Path relative to the corpus folder, with forward slashes. */
  file: string;
  /** Markdown body without its frontmatter. */
  body: string;
  meta: DocumentMeta;
}

interface Section {
  headings: string[];
  slug: string;
  lines: string[];
}

/**
 * Splits a Markdown body into one chunk per heading section. Each chunk keeps its breadcrumb
 * (document title, then the heading path) and the stable source id `<file>#<heading slug>`;
 * text before the first heading gets the slug `top`. Headings inside fenced code are text.
 * Sections with no text of their own are dropped (their subsections carry the heading on).
 * LF, CRLF and CR line breaks are all read; every step is linear in the body's length.
 */
export function chunkMarkdown(doc: MarkdownDocument): Chunk[] {
  const slugger = createSlugger();
  const sections: Section[] = [{ headings: [], slug: slugger(PREAMBLE_SLUG), lines: [] }];
  const path: string[] = [];
  let fence: FenceMarker | null = null;

  for (const line of normalizeNewlines(doc.body).split("\n")) {
    const marker = fenceMarker(line);
    if (marker) fence = fence === null ? marker : fence === marker ? null : fence;
    const heading = fence === null && !marker ? parseHeading(line) : null;
    if (!heading) {
      sections[sections.length - 1].lines.push(line);
      continue;
    }
    const { depth, text } = heading;
    path.length = Math.min(path.length, depth - 1);
    while (path.length < depth - 1) path.push("");
    path.push(text);
    sections.push({ headings: path.filter((h) => h.length > 0), slug: slugger(text), lines: [] });
  }

  const title = doc.meta.title;
  const chunks: Chunk[] = [];
  for (const section of sections) {
    const content = section.lines.join("\n").trim();
    if (content.length === 0) continue;
    chunks.push({
      source: `${doc.file}#${section.slug}`,
      file: doc.file,
      ...(title !== undefined ? { title } : {}),
      breadcrumb: title !== undefined ? [title, ...section.headings] : [...section.headings],
      content,
      meta: doc.meta,
    });
  }
  return chunks;
}
