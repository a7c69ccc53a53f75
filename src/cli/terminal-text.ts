import { capText } from "../text/cap-text.js";
import { showHidden } from "../tool/escape-text.js";

/** Line breaks but `\n`: a bare CR returns to the start of the line and overwrites what it says. */
const OTHER_BREAKS = /[\r\u000b\u000c\u2028\u2029]/g;

/**
 * Most characters of one line the CLI writes to stderr (an error, a warning, a note): enough for
 * a message, two paths and the fix it names; a value quoted in it is cut far shorter where it is
 * quoted (see `shownValue`), this is the bound on the line as a whole.
 */
export const MAX_STDERR_LINE_CHARS = 1000;

/**
 * Most characters of one word (a run without spaces: a flag value, a path, an id) in a stderr
 * line; a longer one is cut and its length said, so that the rest of the message, the fix above
 * all, still fits in the line.
 */
export const MAX_STDERR_WORD_CHARS = 200;

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

/**
 * One bounded line for stderr, the one place every CLI error, warning and note goes through: line
 * breaks (and the space around them) become one space, a tab is shown as `\t`, other controls as
 * `<U+…>` ({@link terminalText}), a word longer than {@link MAX_STDERR_WORD_CHARS} is cut, and the
 * whole is cut to `max` characters, each cut marked with an ellipsis and the length it had, so
 * that no message, nor any value quoted in it, can flood the terminal or a log.
 */
export function stderrLine(text: string, max: number = MAX_STDERR_LINE_CHARS): string {
  const words = text.replace(
    new RegExp(`[^\\s]{${MAX_STDERR_WORD_CHARS + 41},}`, "gu"),
    (word) => `${capText(word, MAX_STDERR_WORD_CHARS)} (a word of ${word.length} characters)`,
  );
  const line = terminalText(words.replace(/\s*\n\s*/g, " ").replace(/\t/g, "\\t"));
  if (line.length <= max) return line;
  const note = ` (cut from ${line.length} characters)`;
  // A cut must not leave half an escape such as `<U+00` behind.
  return `${capText(line, max - note.length).replace(/<(U(\+[0-9A-F]{0,5})?)?…$/, "…")}${note}`;
}
