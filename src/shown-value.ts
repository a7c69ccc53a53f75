/** Most characters of an untrusted value (a file's, an option's) that an error message shows. */
export const MAX_SHOWN_CHARS = 60;

/** Control characters other than tab, and the bidi and other format characters a terminal acts on. */
const NOT_TEXT = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\p{Cf}]/u;

/**
 * A value read from a file or given as an option, as an error message may show it: quoted and cut to
 * {@link MAX_SHOWN_CHARS} characters, or only described when it is not plain text (a binary
 * file, or one such as `/proc/self/environ` linked in its place), so that an error never
 * copies much of a file, nor what a terminal would act on.
 */
export function shownValue(value: string): string {
  if (NOT_TEXT.test(value))
    return `a value of ${value.length} characters that is not plain text (it holds control characters)`;
  if (value.length <= MAX_SHOWN_CHARS) return JSON.stringify(value);
  return `${JSON.stringify(value.slice(0, MAX_SHOWN_CHARS))}… (${value.length} characters)`;
}

/**
 * Any value as an error may show it: a string as {@link shownValue}; a number, boolean, null or
 * undefined as itself; an object or array only described (how many fields or items), since its
 * fields may be a file's content rather than a value the user typed; anything else by its type.
 */
export function shownJson(value: unknown): string {
  if (typeof value === "string") return shownValue(value);
  if (value === null || value === undefined || typeof value === "number" || typeof value === "boolean")
    return String(value);
  if (Array.isArray(value)) return `an array of ${value.length} ${value.length === 1 ? "item" : "items"}`;
  if (typeof value === "object") {
    const fields = Object.keys(value).length;
    return `an object of ${fields} ${fields === 1 ? "field" : "fields"}`;
  }
  return `a ${typeof value}`;
}

/**
 * Why a line is not JSON, without quoting it: `JSON.parse`'s own messages copy the start of the
 * line (`Unexpected token 'S', "SECRET=…" is not valid JSON`), so only the position it names, if
 * any, and the line's length are kept.
 */
export function describeJsonError(error: unknown, line: string): string {
  const message = error instanceof Error ? error.message : "";
  const position = Number(/\bat position (\d+)/.exec(message)?.[1] ?? NaN);
  if (position < line.length) return `invalid JSON at character ${position + 1} of ${line.length}`;
  if (position >= line.length || /unexpected end/i.test(message))
    return `invalid JSON: the line of ${line.length} characters ends inside a value`;
  return `invalid JSON: a line of ${line.length} characters that is not one JSON value`;
}
