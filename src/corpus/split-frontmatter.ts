import { invalidCorpusFile } from "./corpus-file-error.js";

/** A file cut into its frontmatter block and its Markdown body. */
export interface FrontmatterSplit {
  /** What follows the opening `---` on its line, trimmed (`""`, `yaml`, `json`, `js`...); null without frontmatter. */
  language: string | null;
  /** The lines between the opening and the closing delimiter; null without frontmatter. */
  block: string | null;
  /** The Markdown after the closing delimiter's line; the whole text without frontmatter. */
  body: string;
}

const DELIMITER = "---";

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** True when `text` from `start` to `end` holds only spaces and tabs. */
function blankBetween(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isBlank(text.charCodeAt(i))) return false;
  return true;
}

/**
 * Finds the frontmatter of a file whose line breaks are LF (see `normalizeNewlines`): it opens
 * with `---` on the first line (optionally followed by a language name, never by a fourth dash)
 * and closes at the first later line that is `---` with nothing but blanks after it. One pass,
 * linear in the text; nothing is parsed here.
 * @throws LookupKnowledgeError `CORPUS_FILE_INVALID` when the frontmatter is opened and never closed.
 */
export function splitFrontmatter(text: string): FrontmatterSplit {
  if (!text.startsWith(DELIMITER) || text.charAt(DELIMITER.length) === "-") return { language: null, block: null, body: text };
  const openingEnd = text.indexOf("\n");
  if (openingEnd === -1) throw neverClosed();
  const language = text.slice(DELIMITER.length, openingEnd).trim();
  // The closing delimiter may directly follow the opening line (an empty block).
  let lineStart = openingEnd;
  for (;;) {
    const candidate = text.indexOf(`\n${DELIMITER}`, lineStart);
    if (candidate === -1) throw neverClosed();
    const afterDelimiter = candidate + 1 + DELIMITER.length;
    const lineEnd = text.indexOf("\n", afterDelimiter);
    const end = lineEnd === -1 ? text.length : lineEnd;
    if (blankBetween(text, afterDelimiter, end)) {
      const block = candidate > openingEnd ? text.slice(openingEnd + 1, candidate) : "";
      return { language, block, body: lineEnd === -1 ? "" : text.slice(lineEnd + 1) };
    }
    lineStart = end;
  }
}

function neverClosed() {
  return invalidCorpusFile('malformed frontmatter: the "---" on line 1 opens a frontmatter that is never closed by a "---" line');
}
