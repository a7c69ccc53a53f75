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
 * Any value as an error may show it: a string as {@link shownValue}, a number, boolean, null or
 * undefined as itself, an object or array as its JSON text cut likewise, anything else by its type.
 */
export function shownJson(value: unknown): string {
  if (typeof value === "string") return shownValue(value);
  if (value === null || value === undefined || typeof value === "number" || typeof value === "boolean")
    return String(value);
  if (typeof value !== "object") return `a ${typeof value}`;
  let text: string;
  try {
    text = JSON.stringify(value) ?? "an object";
  } catch {
    return "an object that cannot be shown as JSON";
  }
  return text.length <= MAX_SHOWN_CHARS
    ? text
    : `${text.slice(0, MAX_SHOWN_CHARS)}… (${text.length} characters of JSON)`;
}
