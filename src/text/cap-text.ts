/** Cutting text to a length without breaking a character in two. */

/** What marks a cut at the end of a shortened string. */
export const ELLIPSIS = "…";

/**
 * The first `max` UTF-16 code units of `text` at most, never ending inside a surrogate pair.
 * Returns `text` itself when it fits.
 */
export function sliceWhole(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end);
}

/** `text` cut to at most `max` characters, the cut marked with an ellipsis. */
export function capText(text: string, max: number): string {
  return text.length <= max ? text : `${sliceWhole(text, max - ELLIPSIS.length)}${ELLIPSIS}`;
}
