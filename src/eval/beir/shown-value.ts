/** Most characters of a dataset value an error message shows. */
export const MAX_SHOWN_CHARS = 60;

/** Control characters other than tab, and the bidi and other format characters a terminal acts on. */
const NOT_TEXT = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\p{Cf}]/u;

/**
 * A value read from a dataset file, as an error message may show it: quoted and cut to
 * {@link MAX_SHOWN_CHARS} characters, or only described when it is not plain text (a binary
 * file, or one such as `/proc/self/environ` linked in its place), so that an error never
 * copies much of a file, nor what a terminal would act on.
 */
export function shownValue(value: string): string {
  if (NOT_TEXT.test(value)) return `a value of ${value.length} characters that is not plain text (it holds control characters)`;
  if (value.length <= MAX_SHOWN_CHARS) return JSON.stringify(value);
  return `${JSON.stringify(value.slice(0, MAX_SHOWN_CHARS))}… (${value.length} characters)`;
}

/** Any JSON value as an error may show it: a string as {@link shownValue}, anything else as its JSON text, cut likewise. */
export function shownJson(value: unknown): string {
  if (typeof value === "string") return shownValue(value);
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= MAX_SHOWN_CHARS ? text : `${text.slice(0, MAX_SHOWN_CHARS)}… (${text.length} characters of JSON)`;
}
