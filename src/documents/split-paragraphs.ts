/** Where to cut `text` at most `max` characters in: its last line break there, else its last space; -1 when neither. */
function lastBreak(text: string, max: number): number {
  const window = text.slice(0, max + 1);
  const line = window.lastIndexOf("\n");
  if (line > 0) return line;
  for (let at = window.length - 1; at > 0; at--) if (/\s/.test(window[at])) return at;
  return -1;
}

/** Cuts one paragraph longer than `max` at line breaks, then spaces, then anywhere (never half a surrogate pair). */
function cutLong(paragraph: string, max: number): string[] {
  const parts: string[] = [];
  let rest = paragraph;
  while (rest.length > max) {
    let end = lastBreak(rest, max);
    if (end < 0) {
      end = max;
      const code = rest.charCodeAt(end - 1);
      if (code >= 0xd800 && code <= 0xdbff) end--;
    }
    const part = rest.slice(0, end).trim();
    if (part.length > 0) parts.push(part);
    rest = rest.slice(end).trimStart();
  }
  if (rest.trim().length > 0) parts.push(rest.trim());
  return parts;
}

/**
 * Splits plain text into chunks of whole paragraphs (blank-line separated), packed up to `max`
 * characters each; a paragraph longer than `max` is cut at line breaks, then at spaces, then
 * hard. Blank input gives no chunk. Pure and linear in the text's length (per cut).
 */
export function splitParagraphs(text: string, max: number): string[] {
  const chunks: string[] = [];
  let current = "";
  for (const raw of text.split(/\n[ \t]*\n/)) {
    const paragraph = raw.trim();
    if (paragraph.length === 0) continue;
    if (paragraph.length > max) {
      if (current.length > 0) chunks.push(current);
      current = "";
      chunks.push(...cutLong(paragraph, max));
      continue;
    }
    if (current.length > 0 && current.length + 2 + paragraph.length > max) {
      chunks.push(current);
      current = "";
    }
    current = current.length > 0 ? `${current}\n\n${paragraph}` : paragraph;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
