/** A Markdown ATX heading: its level (1-6) and its text without the `#` marks. */
export interface Heading {
  depth: number;
  text: string;
}

/** A code fence marker. */
export type FenceMarker = "```" | "~~~";

const HASH = 0x23;
const MAX_DEPTH = 6;
/** Characters JavaScript's `.` does not match: a line holding one was never a heading, and still is not. */
const LINE_SEPARATOR = /[\n\r\u2028\u2029]/;

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/**
 * Reads an ATX heading (`## Title ##`) in one pass over the line, so that lines of any length
 * cost linear time. The semantics are those of the former pattern
 * `/^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$/` with the text trimmed: one to six `#`, at least one
 * space or tab, then the text without its closing run of `#` and the blanks around it. A line of
 * marks and blanks only is a heading with empty text when at least two blanks follow the marks.
 */
export function parseHeading(line: string): Heading | null {
  let depth = 0;
  while (depth < line.length && line.charCodeAt(depth) === HASH) depth++;
  if (depth === 0 || depth > MAX_DEPTH || depth === line.length || !isBlank(line.charCodeAt(depth))) return null;
  if (LINE_SEPARATOR.test(line)) return null;
  let start = depth + 1;
  while (start < line.length && isBlank(line.charCodeAt(start))) start++;
  if (start === line.length) return start - depth >= 2 ? { depth, text: "" } : null;
  // The longest tail of blanks, then `#`, then blanks; the text keeps at least one character.
  let end = line.length;
  while (end > start && isBlank(line.charCodeAt(end - 1))) end--;
  while (end > start && line.charCodeAt(end - 1) === HASH) end--;
  while (end > start && isBlank(line.charCodeAt(end - 1))) end--;
  return { depth, text: line.slice(start, Math.max(end, start + 1)).trim() };
}

/** The fence a line opens or closes: up to three spaces or tabs, then ``` or ~~~; null otherwise. */
export function fenceMarker(line: string): FenceMarker | null {
  let indent = 0;
  while (indent < 3 && indent < line.length && isBlank(line.charCodeAt(indent))) indent++;
  if (line.startsWith("```", indent)) return "```";
  if (line.startsWith("~~~", indent)) return "~~~";
  return null;
}
