/**
 * Making corpus text safe to quote to a model: nothing in it may pass for the tool's own
 * delimiters or markup, start an unquoted line, reorder what is displayed, or hide text.
 */

/** Every character sequence that starts a new line for some reader: CRLF, LF, CR, NEL, VT, FF, LS, PS. */
export const LINE_BREAK = /\r\n|[\n\r\u0085\u000B\u000C\u2028\u2029]/;

/**
 * Characters written as numeric references instead of themselves: C0 and C1 controls but tab
 * (terminal escapes, NUL), bidirectional controls (which reorder displayed text), and invisible
 * characters that can carry text a reader does not see but a model reads: Unicode tag characters,
 * variation selectors (all but U+FE0F, which emoji use), the zero-width space (the zero-width
 * joiners U+200C and U+200D stay: Persian, Indic scripts and emoji need them), word joiners,
 * invisible operators, the Mongolian vowel separator, the soft hyphen and the BOM.
 */
// Lone variation selectors and format characters are what the class removes, so they stand in it alone.
const HIDDEN =
  // eslint-disable-next-line no-misleading-character-class
  /[\u0000-\u0008\u000E-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFE00-\uFE0E\uFEFF]|[\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/gu;

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

const hexOf = (char: string) => (char.codePointAt(0) ?? 0).toString(16).toUpperCase();

/**
 * Escapes one line of corpus text: `&`, `<`, `>` as HTML entities, hidden and reordering
 * characters as `&#x…;` references. Line breaks must already be split off (see {@link LINE_BREAK}).
 */
export function escapeCorpusText(text: string): string {
  return text.replace(/[&<>]/g, (char) => ENTITIES[char]).replace(HIDDEN, (char) => `&#x${hexOf(char)};`);
}

/** Text for a terminal: hidden, reordering and escape characters shown as `<U+…>`, the rest as written. */
export function showHidden(text: string): string {
  return text.replace(HIDDEN, (char) => `<U+${hexOf(char).padStart(4, "0")}>`);
}

/** Corpus text as one escaped line: every run of whitespace and line breaks becomes one space. */
export function oneLine(text: string): string {
  return escapeCorpusText(text.replace(/[\s\u0085]+/gu, " ").trim());
}

/** Corpus text as escaped lines, split at every line break of {@link LINE_BREAK}. */
export function escapedLines(text: string): string[] {
  return text.split(LINE_BREAK).map(escapeCorpusText);
}
