/**
 * The frontmatter path `src/` had before gray-matter (our own splitter, then the same YAML and JSON
 * engines), kept here only so that `npm run bench -- --only parse` can time it side by side with
 * the gray-matter path. `src/` has one frontmatter path and never imports this file.
 */
import { invalidCorpusFile } from "../../src/corpus/corpus-file-error.js";
import {
  parseJsonFrontmatter,
  parseYamlFrontmatter,
  type FrontmatterEngine,
} from "../../src/corpus/frontmatter-engines.js";
import type { ParsedFrontmatter } from "../../src/corpus/parse-frontmatter.js";

/** A file cut into its frontmatter block and its Markdown body. */
interface FrontmatterSplit {
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
function splitFrontmatter(text: string): FrontmatterSplit {
  if (!text.startsWith(DELIMITER) || text.charAt(DELIMITER.length) === "-")
    return { language: null, block: null, body: text };
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
  return invalidCorpusFile(
    'malformed frontmatter: the "---" on line 1 opens a frontmatter that is never closed by a "---" line',
  );
}

const ENGINES: Readonly<Record<string, FrontmatterEngine>> = {
  "": parseYamlFrontmatter,
  yaml: parseYamlFrontmatter,
  yml: parseYamlFrontmatter,
  json: parseJsonFrontmatter,
};

/** The previous `parseFrontmatter`: split, refuse any language but YAML and JSON, parse the block (after a line break standing for the opening line). */
export function previousParseFrontmatter(text: string): ParsedFrontmatter {
  const { language, block, body } = splitFrontmatter(text);
  if (language === null || block === null) return { data: {}, body };
  const key = language.toLowerCase();
  const engine = Object.hasOwn(ENGINES, key) ? ENGINES[key] : undefined;
  if (engine === undefined)
    throw invalidCorpusFile(`frontmatter language ${JSON.stringify(language.slice(0, 40))} is not accepted`);
  if (block.trim().length === 0) return { data: {}, body };
  return { data: engine(`\n${block}`), body };
}
