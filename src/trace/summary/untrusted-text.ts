/** Showing trace text (queries come from users and models) without letting it steer a terminal or a page. */
import { capText } from "../../text/cap-text.js";

/**
 * C0 and C1 controls, DEL, line and paragraph separators, and the bidirectional overrides and
 * isolates: what can move a cursor, recolour a terminal or reorder what is shown.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Characters of a query kept in a summary. */
export const SHOWN_QUERY_CHARS = 120;

/** `text` with every unsafe character written as `\u{XXXX}`: visible, and inert. */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, (char) => `\\u{${char.charCodeAt(0).toString(16).padStart(4, "0")}}`);
}

/** A query as a summary shows and groups it: whitespace runs as one space, cut to `max` characters, then controls escaped. */
export function shownQuery(query: string, max: number = SHOWN_QUERY_CHARS): string {
  return escapeControls(capText(query.replace(/[ \t\r\n]+/g, " ").trim(), max));
}
