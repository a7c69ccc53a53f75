/**
 * Text with one kind of line break: a leading byte order mark removed, CRLF and lone CR turned
 * into LF, so that frontmatter and headings split the same whatever editor saved the file.
 */
export function normalizeNewlines(text: string): string {
  const withoutBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return withoutBom.includes("\r") ? withoutBom.replace(/\r\n?/g, "\n") : withoutBom;
}
