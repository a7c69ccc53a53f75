import { showHidden } from "../tool/escape-text.js";

/** Line breaks but `\n`: a bare CR returns to the start of the line and overwrites what it says. */
const OTHER_BREAKS = /[\r\u000b\u000c\u2028\u2029]/g;

/**
 * Text for a terminal, from values the user or a file supplied (a flag, a path, a recorded corpus
 * folder): escape sequences, other controls, bidi overrides and every line break but `\n` are shown
 * as `<U+…>`, so that no value can recolour, retitle, clear or rewrite the terminal.
 */
export function terminalText(text: string): string {
  return showHidden(text).replace(
    OTHER_BREAKS,
    (char) => `<U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}>`,
  );
}
