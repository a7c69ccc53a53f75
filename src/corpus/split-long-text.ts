import { isLineBreak, isRegExpSpace } from "../text/whitespace.js";
/** UTF-8 bytes of the UTF-16 code unit at `at` of `text` (a surrogate pair counts 4 on its first unit, 0 on its second). */
function unitBytes(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = text.charCodeAt(at + 1);
    return next >= 0xdc00 && next <= 0xdfff ? 4 : 3;
  }
  if (code >= 0xdc00 && code <= 0xdfff) {
    const previous = at > 0 ? text.charCodeAt(at - 1) : 0;
    return previous >= 0xd800 && previous <= 0xdbff ? 0 : 3;
  }
  return 3;
}

/** True when `text` takes at most `maxBytes` bytes of UTF-8 (a lone surrogate counts as its 3-byte replacement). */
export function fitsBytes(text: string, maxBytes: number): boolean {
  // Three bytes per UTF-16 code unit at most, so a short text needs no count.
  return text.length * 3 <= maxBytes || Buffer.byteLength(text, "utf8") <= maxBytes;
}

/** Spaces a word may end at: ASCII blanks and the Unicode space separators (`\s` but a line break). */
function isSpace(code: number): boolean {
  return isRegExpSpace(code) && !isLineBreak(code);
}

const isBlank = (code: number) => isSpace(code) || isLineBreak(code);

/** The last index in (start, end) where a blank line begins (`\n`, blanks, `\n`); -1 when none. */
function lastParagraphBreak(text: string, start: number, end: number): number {
  for (let at = end - 1; at > start; at--) {
    if (text.charCodeAt(at) !== 0x0a) continue;
    let before = at - 1;
    while (before > start && (text.charCodeAt(before) === 0x20 || text.charCodeAt(before) === 0x09)) before--;
    if (before > start && text.charCodeAt(before) === 0x0a) return before;
  }
  return -1;
}

/** The last index in (start, end) of a code unit that `matches`; -1 when none. */
function lastWhere(text: string, start: number, end: number, matches: (code: number) => boolean): number {
  for (let at = end - 1; at > start; at--) if (matches(text.charCodeAt(at))) return at;
  return -1;
}

/** The end of the longest run from `start` that fits in `maxBytes` of UTF-8, never inside a surrogate pair; at least one character. */
function fittingEnd(text: string, start: number, maxBytes: number): number {
  let bytes = 0;
  let at = start;
  while (at < text.length) {
    const width = unitBytes(text, at);
    const step = width === 4 ? 2 : 1;
    if (bytes + width > maxBytes) break;
    bytes += width;
    at += step;
  }
  if (at > start) return at;
  return Math.min(text.length, start + (unitBytes(text, start) === 4 ? 2 : 1));
}

/**
 * Splits `text` into parts of at most `maxBytes` UTF-8 bytes each: as many whole paragraphs
 * (blank-line separated) as fit, a paragraph too long for one part at its line breaks, a line at
 * its spaces, and a run with no break at all at a character boundary (never inside a UTF-8
 * character or a surrogate pair). The blanks at each cut are dropped and every part is trimmed,
 * so the parts in order are the text without those blanks. A text that fits is one part (trimmed);
 * blank text gives none. Pure; each part costs time linear in `maxBytes`.
 */
export function splitLongText(text: string, maxBytes: number): string[] {
  const parts: string[] = [];
  let start = 0;
  while (start < text.length && isBlank(text.charCodeAt(start))) start++;
  while (start < text.length) {
    const fit = fittingEnd(text, start, maxBytes);
    let cut = fit;
    if (fit < text.length) {
      // Cut at the last break that keeps the part within the limit: paragraph, else line, else word.
      const found = [
        lastParagraphBreak(text, start, fit + 1),
        lastWhere(text, start, fit + 1, isLineBreak),
        lastWhere(text, start, fit + 1, isSpace),
      ].find((at) => at > start);
      if (found !== undefined) cut = found;
    }
    const part = text.slice(start, cut).trim();
    if (part.length > 0) parts.push(part);
    start = cut;
    while (start < text.length && isBlank(text.charCodeAt(start))) start++;
  }
  return parts;
}
