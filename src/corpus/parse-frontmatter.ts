import matter from "gray-matter";
import { isRegExpSpace } from "../text/whitespace.js";
import { invalidCorpusFile } from "./corpus-file-error.js";
import { opensFrontmatter } from "./frontmatter-fence.js";
import { grayMatterOptions } from "./gray-matter-options.js";

/** A file's raw frontmatter fields and its Markdown body. */
export interface ParsedFrontmatter {
  /** The top-level mapping of the frontmatter; empty when there is none. */
  data: Record<string, unknown>;
  body: string;
}

/**
 * Most steps gray-matter's comment scan of a block (`/^\s*#[^\n]+/gm`, run on every block) may
 * take. It rescans a run of blank lines from every line start in it, so its cost grows with the
 * square of the run: 80,000 blank lines take seconds, a 64 MB file hours. This budget is a run of
 * about 5,600 blank lines, far beyond any real frontmatter, and a few tens of milliseconds.
 */
const MAX_COMMENT_SCAN_STEPS = 16_000_000;

function isLineTerminator(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}

/** An upper bound of the comment scan's steps over `text` from `start` to `end`: for each line start inside a run of blanks, the rest of the run. One pass. */
function commentScanSteps(text: string, start: number, end: number): number {
  let steps = 0;
  let lineStarts = 0;
  let lineStartSum = 0;
  for (let i = start; i < end; i++) {
    if (isRegExpSpace(text.charCodeAt(i))) {
      if (i === start || isLineTerminator(text.charCodeAt(i - 1))) {
        lineStarts++;
        lineStartSum += i;
      }
    } else if (lineStarts > 0) {
      steps += lineStarts * i - lineStartSum;
      lineStarts = 0;
      lineStartSum = 0;
    }
  }
  return steps + lineStarts * end - lineStartSum;
}

/**
 * False when a block of `chars` characters cannot exceed {@link MAX_COMMENT_SCAN_STEPS}, so that
 * the scan is skipped: each of at most `chars` line starts adds at most `chars` steps.
 */
export function mayExceedCommentScanBudget(chars: number): boolean {
  return chars * chars > MAX_COMMENT_SCAN_STEPS;
}

function blankBetween(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code !== 0x20 && code !== 0x09) return false;
  }
  return true;
}

/**
 * Splits a file (LF line breaks, no byte order mark: see `normalizeNewlines`) into frontmatter
 * fields and body with gray-matter. The frontmatter opens with `---` on the first line, optionally
 * followed by its language (never by a fourth dash), and closes at the first later line that opens
 * with `---`; a later `---` stays in the body. Its language is read (`matter.language`) and checked
 * before gray-matter runs: YAML and JSON are parsed as data by our engines, and any other language
 * is refused, so frontmatter never runs. gray-matter is given the file up to the end of the closing
 * line, splits it into the fields and the start of the body (what of that line it keeps), and the
 * rest of the file follows unchanged: the same data and body as gray-matter gives for the whole file.
 * @throws LookupKnowledgeError `CORPUS_FILE_INVALID` for a refused language, malformed YAML or
 * JSON, a top level that is not a mapping, a frontmatter that is never closed (gray-matter would
 * read the whole file as frontmatter), a closing line with more than blanks after its `---`, or
 * runs of blank lines too long to scan in bounded time.
 */
export function parseFrontmatter(text: string): ParsedFrontmatter {
  if (!opensFrontmatter(text)) return { data: {}, body: text };
  const close = text.indexOf("\n---", 3);
  if (close === -1) throw neverClosed();
  const options = grayMatterOptions(matter.language(text).name);
  const closingLineEnd = text.indexOf("\n", close + 4);
  if (!blankBetween(text, close + 4, closingLineEnd === -1 ? text.length : closingLineEnd)) {
    throw invalidCorpusFile('malformed frontmatter: the line that closes it holds more than "---"; put the closing "---" on a line of its own');
  }
  if (mayExceedCommentScanBudget(close - 3) && commentScanSteps(text, 3, close) > MAX_COMMENT_SCAN_STEPS) {
    throw invalidCorpusFile("malformed frontmatter: it holds runs of thousands of blank lines; remove them");
  }
  // What follows the closing line is body whole; handing gray-matter only the lines up to it spares
  // it a Buffer copy of the whole file and a hash of it (its cache lookup runs even with options).
  const headEnd = closingLineEnd === -1 ? text.length : closingLineEnd + 1;
  const file = matter(headEnd === text.length ? text : text.slice(0, headEnd), options);
  return { data: file.data, body: file.content + text.slice(headEnd) };
}

function neverClosed() {
  return invalidCorpusFile('malformed frontmatter: the "---" on line 1 opens a frontmatter that is never closed by a "---" line');
}
